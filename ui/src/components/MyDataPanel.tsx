import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core'

/** The personal data export (PRODUCT §13 "My data"): `GET /print/mydata`. */
export const MY_DATA_PATH = '/print/mydata'

/**
 * "Mes données" of the profile: what Primeur holds of the user, downloaded
 * as a zip (RGPD): account, needs, orders, activity, payments and the
 * invoices' PDFs.
 */
export function MyDataPanel() {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="mydata-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="mydata-title">
          Mes données
        </Title>
        <Text size="sm" c="dimmed">
          Une archive zip de tout ce que Primeur conserve de votre compte : profil, besoins et propositions, commandes
          et livraisons, activité, paiements (JSON), et vos factures et avoirs (PDF).
        </Text>
        <Group justify="flex-end">
          <Button component="a" href={MY_DATA_PATH} download variant="default">
            Télécharger mes données
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
