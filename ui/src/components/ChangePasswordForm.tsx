import { PasswordInput, SimpleGrid, Text } from '@mantine/core'
import { SettingsFormCard } from './SettingsFormCard'
import { fieldProps, useDoneAndReset, useSendForm } from '../forms/useSendForm'
import { changePassword } from '../store/session'
import {
  CHANGE_TEXTS,
  type ChangeField,
  type ChangeValues,
  RESET_TEXTS,
  validateChange,
} from '../validation/passwordReset'

const EMPTY: ChangeValues = { current: '', password: '', password2: '' }

/**
 * The password change of the profile (PRODUCT §13 "Password change"): the
 * current password, then the new one twice; the other sessions end.
 */
export function ChangePasswordForm() {
  const { key, done, onDone } = useDoneAndReset()
  return <ChangePasswordFields key={key} done={done} onDone={onDone} />
}

function ChangePasswordFields({ done, onDone }: { done: string | null; onDone: (message: string) => void }) {
  const { form, submission, onSubmit } = useSendForm<ChangeValues, ChangeField>(EMPTY, validateChange, async (v) =>
    onDone(await changePassword(v.current, v.password, v.password2)),
  )
  return (
    <SettingsFormCard
      id="password-title"
      title={CHANGE_TEXTS.title}
      intro={
        <Text size="sm" c="dimmed">
          Vos autres sessions (autres navigateurs, autres appareils) seront fermées.
        </Text>
      }
      done={done}
      submission={submission}
      canSubmit={form.canSubmit}
      submitLabel={CHANGE_TEXTS.submit}
      onSubmit={onSubmit}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <PasswordInput label={CHANGE_TEXTS.current} autoComplete="current-password" {...fieldProps(form, 'current')} />
        <PasswordInput label={RESET_TEXTS.newPassword} autoComplete="new-password" {...fieldProps(form, 'password')} />
        <PasswordInput
          label={RESET_TEXTS.newPassword2}
          autoComplete="new-password"
          {...fieldProps(form, 'password2')}
        />
      </SimpleGrid>
    </SettingsFormCard>
  )
}
