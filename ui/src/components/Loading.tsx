import { Center, Loader, Stack, Text } from '@mantine/core'

/** Spinner shown while the user type is unknown (PRODUCT §2). */
export function Loading() {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">Chargement en cours</Text>
      </Stack>
    </Center>
  )
}
