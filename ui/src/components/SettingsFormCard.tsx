import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core'
import type { FormEvent, ReactNode } from 'react'
import { SubmitFailure } from '../forms/SubmitFailure'
import type { Submission } from '../forms/useSubmit'

/**
 * The frame of a profile's settings form (the login email, the password):
 * its title naming the form, what it does, the last outcome, the fields,
 * the failure and the submit button, disabled while nothing can be sent.
 */
export function SettingsFormCard({
  id,
  title,
  intro,
  done,
  submission,
  canSubmit,
  submitLabel,
  onSubmit,
  children,
}: {
  /** The title's id, which names the form. */
  id: string
  title: string
  intro: ReactNode
  done: string | null
  submission: Submission
  canSubmit: boolean
  submitLabel: string
  onSubmit: (event: FormEvent) => void
  children: ReactNode
}) {
  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={3} size="h4" id={id}>
          {title}
        </Title>
        {intro}
        {done ? (
          <Alert color="green" role="status">
            {done}
          </Alert>
        ) : null}
        {children}
        <SubmitFailure message={submission.failure} />
        <Group justify="flex-end">
          <Button type="submit" disabled={!canSubmit || submission.submitting}>
            {submission.label(submitLabel)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
