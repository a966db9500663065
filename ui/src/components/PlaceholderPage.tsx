import { Alert, Stack, Title } from '@mantine/core'
import type { ReactNode } from 'react'

/** A screen whose content is built by a later issue; keeps navigation working. */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack p="md">
      <Title order={1}>{title}</Title>
      <Alert color="gray" title="Écran à construire">
        Cet écran sera construit dans une prochaine étape.
      </Alert>
      {children}
    </Stack>
  )
}
