import { Alert } from '@mantine/core'

/** Why the last submission failed (useSubmit's failure), announced as an alert; nothing when it did not. */
export function SubmitFailure({ message }: { message: string | null | undefined }) {
  if (!message) return null
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  )
}
