import { Alert, Stack, Text } from '@mantine/core'
import { ResendConfirmationButton } from './ResendConfirmationButton'

export const BANNER_TITLE = 'Confirmez votre adresse email'

/** The banner's sentence for the login email `email`. */
export function bannerText(email: string): string {
  return `Un lien de confirmation a été envoyé à ${email}. Tant que l'adresse n'est pas confirmée, les bons de livraison, les factures et les notifications ne vous sont pas envoyés par email.`
}

/**
 * The banner above every logged-in page while the login email is not
 * confirmed (PRODUCT §13 "Confirming an email"): what waits for it, and a
 * way to receive the link again.
 */
export function EmailConfirmBanner({ email }: { email: string }) {
  return (
    <Alert color="yellow" variant="light" title={BANNER_TITLE} m="md" mb={0} role="region">
      <Stack gap="xs">
        <Text size="sm">{bannerText(email)}</Text>
        <ResendConfirmationButton which="account" />
      </Stack>
    </Alert>
  )
}
