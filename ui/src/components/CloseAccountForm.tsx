import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useLocation } from 'wouter'
import { ApiError, errorMessage } from '../api'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { closeAccount } from '../store/session'
import { CHANGE_TEXTS } from '../validation/passwordReset'

export const CLOSE_TEXTS = {
  title: 'Supprimer mon compte',
  intro:
    'Votre compte sera anonymisé et vous ne pourrez plus vous connecter. Vos factures et avoirs restent conservés 10 ans, comme la loi l’exige. Téléchargez vos données avant, si vous les voulez.',
  open: 'Supprimer mon compte…',
  confirm: 'Supprimer définitivement',
  cancel: 'Annuler',
} as const

/**
 * "Supprimer mon compte" of the profile (PRODUCT §13 "Closing an account"):
 * opened on purpose, confirmed with the password; what blocks the closure
 * (deliveries planned, commitments, claims, invoices unpaid) is the
 * daemon's answer, shown as is. Once closed, the visitor is logged out.
 */
export function CloseAccountForm() {
  const [open, setOpen] = useState(false)
  const [current, setCurrent] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>()
  const submission = useSubmit()
  const [, navigate] = useLocation()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (current === '') {
      setFieldError(CHANGE_TEXTS.currentRequired)
      return
    }
    await submission.run(async () => {
      try {
        await closeAccount(current)
        navigate('/landing')
      } catch (err) {
        if (err instanceof ApiError && err.status === 422) {
          setFieldError(err.fieldErrors().current ?? errorMessage(err))
          return
        }
        return errorMessage(err)
      }
    })
  }

  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="close-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="close-title">
          {CLOSE_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          {CLOSE_TEXTS.intro}
        </Text>
        {!open ? (
          <Group justify="flex-end">
            <Button color="red" variant="outline" onClick={() => setOpen(true)}>
              {CLOSE_TEXTS.open}
            </Button>
          </Group>
        ) : null}
        {open ? (
          <Stack gap="sm">
            <Alert color="red" role="note">
              Cette suppression est définitive.
            </Alert>
            <PasswordInput
              label={CHANGE_TEXTS.current}
              autoComplete="current-password"
              value={current}
              onChange={(e) => {
                setCurrent(e.currentTarget.value)
                setFieldError(undefined)
              }}
              error={fieldError}
            />
            <SubmitFailure message={submission.failure} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)} disabled={submission.submitting}>
                {CLOSE_TEXTS.cancel}
              </Button>
              <Button type="submit" color="red" disabled={submission.submitting}>
                {submission.label(CLOSE_TEXTS.confirm)}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  )
}
