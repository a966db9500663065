import { Container, Grid, Loader, Paper, Stack, Text, Title } from '@mantine/core'
import { lazy, Suspense } from 'react'
import { useParams } from 'wouter'
import { AudiencePanel, type Claim } from '../components/AudiencePanel'
import { ConfirmEmail } from '../components/ConfirmEmail'
import { ForgotPasswordForm } from '../components/ForgotPasswordForm'
import { LoginForm } from '../components/LoginForm'
import { RegisterForm } from '../components/RegisterForm'
import { ResetPasswordForm } from '../components/ResetPasswordForm'
import { RevertEmailForm } from '../components/RevertEmailForm'
import { UnsubscribeForm } from '../components/UnsubscribeForm'
import { linkToken, parseLandingMode } from '../routing'

// The invitation's page is opened by invited members only: its form and
// the team's store load with it, not with every visitor's first page
// (the first page's JavaScript budget, e2e/budget.spec.ts).
const InvitationForm = lazy(() => import('../team/InvitationForm').then((m) => ({ default: m.InvitationForm })))

// Marketing claims of PRODUCT §1. The 7h figure is the landing page's; the app
// itself shows the lock time of the delivery note (PRODUCT §4).
const COMMON: Claim[] = [
  {
    text: "Le bon de livraison reste modifiable jusqu'à 7h le jour de la livraison, puis il est envoyé par email aux deux parties à 7h30.",
  },
  { text: 'La facture est générée et envoyée par email le dernier jour de chaque mois.' },
  { text: 'Une réclamation (demande d’avoir) est possible après chaque livraison.' },
  { text: 'Aucune commission : Primeur ne prélève rien sur vos échanges.' },
  { text: 'Délais de paiement' },
  { text: 'Comparaison des prix avec les moyennes nationales ou locales' },
  { text: 'Recherche par code postal' },
  { text: 'Statistiques de progression' },
]

const SOON: Claim[] = [{ text: 'Prépaiement', soon: true }]

const SHOP_CLAIMS: Claim[] = [
  {
    text: 'Planifiez vos besoins mensuels par produit : un par un, en masse, par import Excel ou à partir d’une simulation.',
  },
  {
    text: 'Recevez les propositions des producteurs locaux, acceptez-les, refusez-les ou faites une contre-proposition.',
  },
  { text: 'Suivez vos réceptions et l’évolution de vos stocks, avec des conseils d’approvisionnement.' },
  ...COMMON,
  ...SOON,
]

const PRODUCER_CLAIMS: Claim[] = [
  { text: 'Choisissez un magasin sur la carte, consultez ses besoins et proposez vos quantités et vos prix.' },
  { text: 'Vos propositions acceptées deviennent des commandes, livrées selon vos jours de livraison.' },
  { text: 'Les factures sont émises en votre nom grâce au mandat de facturation confié à Primeur.' },
  ...COMMON,
  ...SOON,
]

/**
 * Public landing page: login or registration form — or the page of an
 * emailed link: password reset, email confirmation, the way back of an
 * email change, unsubscription — plus
 * two explanatory panels (PRODUCT §2).
 */
export function Landing() {
  const mode = parseLandingMode(useParams<{ mode?: string }>().mode)
  return (
    <Container component="main" id="contenu" size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>Primeur</Title>
          <Text size="lg">
            Les producteurs locaux et les magasins se retrouvent autour de leurs besoins mensuels, sans intermédiaire ni
            commission.
          </Text>
        </Stack>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Paper withBorder shadow="sm" p="lg">
              {mode === 'login' ? (
                <LoginForm />
              ) : mode === 'forgot' ? (
                <ForgotPasswordForm />
              ) : mode === 'reset' ? (
                <ResetPasswordForm token={linkToken(window.location.hash)} />
              ) : mode === 'confirm' ? (
                <ConfirmEmail token={linkToken(window.location.hash)} />
              ) : mode === 'revert' ? (
                <RevertEmailForm token={linkToken(window.location.hash)} />
              ) : mode === 'unsubscribe' ? (
                <UnsubscribeForm token={linkToken(window.location.hash)} />
              ) : mode === 'invitation' ? (
                <Suspense fallback={<Loader size="sm" aria-label="Chargement" />}>
                  <InvitationForm token={linkToken(window.location.hash)} />
                </Suspense>
              ) : (
                <RegisterForm key={mode} distributor={mode !== 'producer'} />
              )}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
            <AudiencePanel
              title="Vous êtes un magasin"
              intro="Planifiez vos achats auprès des producteurs de votre région."
              claims={SHOP_CLAIMS}
              cta="Créer un compte magasin"
              href="/landing/distributor"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
            <AudiencePanel
              title="Vous êtes un producteur"
              intro="Vendez directement aux magasins proches de chez vous."
              claims={PRODUCER_CLAIMS}
              cta="Créer un compte producteur"
              href="/landing/producer"
            />
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  )
}
