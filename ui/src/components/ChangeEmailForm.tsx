import { PasswordInput, SimpleGrid, Text, TextInput } from '@mantine/core'
import { fieldProps, useDoneAndReset, useSendForm } from '../forms/useSendForm'
import { changeEmail } from '../store/email'
import {
  EMAIL_CHANGE_TEXTS,
  type EmailChangeField,
  type EmailChangeValues,
  validateEmailChange,
} from '../validation/emailChange'
import { SettingsFormCard } from './SettingsFormCard'

const EMPTY: EmailChangeValues = { email: '', current: '' }

/**
 * The change of the login email in the profile (PRODUCT §13 "Confirming an
 * email"): the new address and the current password; the daemon emails a
 * link to the new address, which replaces the old one once opened. The
 * address waiting for its link shows under the form.
 */
export function ChangeEmailForm({ email, pending }: { email: string; pending?: string }) {
  const { key, done, onDone } = useDoneAndReset()
  return <ChangeEmailFields key={key} email={email} pending={pending} done={done} onDone={onDone} />
}

function ChangeEmailFields({
  email,
  pending,
  done,
  onDone,
}: {
  email: string
  pending?: string
  done: string | null
  onDone: (message: string) => void
}) {
  const { form, submission, onSubmit } = useSendForm<EmailChangeValues, EmailChangeField>(
    EMPTY,
    validateEmailChange,
    async (v) => onDone(await changeEmail(v.current, v.email.trim())),
  )
  return (
    <SettingsFormCard
      id="email-change-title"
      title={EMAIL_CHANGE_TEXTS.title}
      intro={
        <>
          <Text size="sm">{EMAIL_CHANGE_TEXTS.current(email)}</Text>
          <Text size="sm" c="dimmed">
            {EMAIL_CHANGE_TEXTS.intro}
          </Text>
        </>
      }
      done={done}
      submission={submission}
      canSubmit={form.canSubmit}
      submitLabel={EMAIL_CHANGE_TEXTS.submit}
      onSubmit={onSubmit}
    >
      {pending ? (
        <Text size="sm" fw={600}>
          {EMAIL_CHANGE_TEXTS.pending(pending)}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={EMAIL_CHANGE_TEXTS.email} type="email" autoComplete="email" {...fieldProps(form, 'email')} />
        <PasswordInput
          label={EMAIL_CHANGE_TEXTS.password}
          autoComplete="current-password"
          {...fieldProps(form, 'current')}
        />
      </SimpleGrid>
    </SettingsFormCard>
  )
}
