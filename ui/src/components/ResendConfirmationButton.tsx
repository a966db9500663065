import { Button, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import { errorMessage } from '../api'
import { useSubmit } from '../forms/useSubmit'
import { resendConfirmation } from '../store/email'
import type { ConfirmWhich } from '../types'

export const RESEND_LABEL = 'Renvoyer le lien'

/**
 * "Renvoyer le lien" of an unconfirmed address (PRODUCT §13 "Confirming an
 * email"): asks the daemon for a new confirmation link and says what it
 * answered — the sentence, or why not (429 past the limit) — in a live
 * region, so screen readers hear it.
 */
export function ResendConfirmationButton({ which }: { which: ConfirmWhich }) {
  const submission = useSubmit()
  const [sent, setSent] = useState<string | null>(null)

  const resend = () =>
    submission.run(async () => {
      setSent(null)
      try {
        setSent(await resendConfirmation(which))
      } catch (err) {
        return errorMessage(err)
      }
    })

  return (
    <Stack gap={4} align="flex-start">
      <Button variant="light" size="compact-sm" onClick={() => void resend()} disabled={submission.submitting}>
        {submission.label(RESEND_LABEL)}
      </Button>
      <Text size="sm" role="status" aria-live="polite" c={submission.failure ? 'red' : undefined}>
        {submission.failure ?? sent ?? ''}
      </Text>
    </Stack>
  )
}
