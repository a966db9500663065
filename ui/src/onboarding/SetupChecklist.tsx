// "Premiers pas" on the dashboard of a new account (PRODUCT §2 "Dashboard"):
// the steps of onboarding/checklist.ts, each a link to the exact field of the
// profile form (or to the planner); the card goes once every step is done.
import { Anchor, Card, List, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core'
import { Link } from 'wouter'
import type { ProfileFormField } from '../validation/profile'
import { type SetupStep, type SetupUser, isSetupComplete, setupSteps } from './checklist'

function Mark({ done }: { done: boolean }) {
  return (
    <ThemeIcon size={22} radius="xl" color={done ? 'green.8' : 'gray.6'} variant={done ? 'filled' : 'outline'}>
      <svg
        width="13"
        height="13"
        viewBox="0 0 24 24"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
      >
        {done ? <path d="M5 12l5 5 9-10" /> : <circle cx="12" cy="12" r="3" fill="currentColor" />}
      </svg>
    </ThemeIcon>
  )
}

function StepLink({ step, onOpenField }: { step: SetupStep; onOpenField: (field: ProfileFormField) => void }) {
  if (step.target.kind === 'page') {
    return (
      <Anchor component={Link} href={step.target.path} fw={600}>
        {step.label}
      </Anchor>
    )
  }
  const field = step.target.field
  return (
    <Anchor component="button" type="button" fw={600} onClick={() => onOpenField(field)} ta="left">
      {step.label}
    </Anchor>
  )
}

export function SetupChecklist({
  user,
  needCount,
  onOpenField,
}: {
  user: SetupUser
  needCount: number
  /** Opens the profile form on a field. */
  onOpenField: (field: ProfileFormField) => void
}) {
  const steps = setupSteps(user, needCount)
  if (isSetupComplete(steps)) return null
  const done = steps.filter((s) => s.done).length
  const left = steps.length - done
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="setup-title">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h3" id="setup-title">
            Premiers pas
          </Title>
          <Text size="sm" c="dimmed">
            {left === 1
              ? 'Encore une étape pour que votre compte soit prêt.'
              : `Encore ${left} étapes pour que votre compte soit prêt.`}
          </Text>
        </Stack>
        <Progress
          value={Math.round((done / steps.length) * 100)}
          color="green.8"
          aria-label={`${done} étape${done > 1 ? 's' : ''} faite${done > 1 ? 's' : ''} sur ${steps.length}`}
        />
        <List spacing="sm" listStyleType="none" center={false}>
          {steps.map((step) => (
            <List.Item key={step.id} icon={<Mark done={step.done} />} data-step={step.id} data-done={step.done}>
              <Stack gap={0}>
                {step.done ? (
                  <Text fw={600} c="dimmed">
                    {step.label} <VisuallyHidden>(fait)</VisuallyHidden>
                  </Text>
                ) : (
                  <StepLink step={step} onOpenField={onOpenField} />
                )}
                {!step.done ? (
                  <Text size="sm" c={step.id === 'position' ? 'orange.9' : 'dimmed'}>
                    {step.hint}
                  </Text>
                ) : null}
              </Stack>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Card>
  )
}
