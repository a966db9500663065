import {
  Alert,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { SubmitFailure } from '../forms/SubmitFailure'
import { useSubmit } from '../forms/useSubmit'
import { formatDayInWords } from '../format'
import { type PAConnectionForm, claimPA, connectPA, disconnectPA, loadPA, testPA, usePA } from '../store/pa'

export const EINVOICING_TEXTS = {
  title: 'Facturation électronique',
  intro:
    'À partir du 1er septembre 2027, vos factures devront passer par une plateforme agréée (PA). Connectez la vôtre : Primeur y déposera chaque facture et chaque avoir au format Factur-X dès son émission, et vous montrera, comme à vos magasins, son statut (Déposée, Refusée, Encaissée…).',
  notConnected:
    "Aucune plateforme agréée n'est connectée : vos factures partent par email et dans l'export comptable, hors plateforme.",
  flowUrl: 'Adresse du service de flux',
  flowUrlHint: 'Donnée par votre plateforme : l’adresse avant /v1 (https).',
  tokenUrl: 'Adresse du jeton (OAuth2)',
  clientId: 'Identifiant du client',
  clientSecret: 'Secret du client',
  secretKept: 'Laissez vide pour garder le secret enregistré (il n’est jamais réaffiché).',
  directoryUrl: "Adresse de l'annuaire (facultatif)",
  since: 'Déposer aussi les factures émises depuis le (facultatif)',
  sinceHint:
    'Par exemple le 1er janvier, pour déposer les factures de l’année en cours ; sinon, celles émises à partir de maintenant.',
  test: 'Tester la connexion',
  testing: 'Test en cours…',
  save: 'Enregistrer la connexion',
  disconnect: 'Déconnecter',
  webhook: 'Adresse de rappel (webhook) à donner à votre plateforme, avec son jeton :',
  secretUnreadable:
    "Le secret enregistré ne peut plus être lu (la clé du serveur manque) : rien n'est déposé. Prévenez l'administrateur, ou enregistrez à nouveau votre secret.",
} as const

/** "Connectée depuis le … ; …" */
function connectedLine(connectedAt: string, depositFrom: string, deposited: number, failing: number): string {
  const day = connectedAt.slice(0, 10)
  let line = `Connectée depuis le ${formatDayInWords(day)} : sont déposées les factures émises à partir du ${formatDayInWords(depositFrom)}. ${deposited} document${deposited > 1 ? 's' : ''} déposé${deposited > 1 ? 's' : ''}.`
  if (failing > 0) line += ` ${failing} en échec de dépôt, réessayé${failing > 1 ? 's' : ''} plus tard.`
  return line
}

/**
 * The producer's "Facturation électronique" (PRODUCT §16 "Electronic
 * invoicing through an approved platform"): the PA's URLs and client
 * credentials, "Tester la connexion" (the daemon asks the PA for a token,
 * then its healthcheck, and says in French what failed), the connection's
 * state and the webhook to give the PA. The secret is never shown back.
 */
export function EInvoicingForm({ owner }: { owner: string }) {
  const pa = usePA()
  useEffect(() => {
    claimPA(owner)
    void loadPA()
  }, [owner])
  const data = pa.data
  const [form, setForm] = useState<PAConnectionForm>({ flowUrl: '', tokenUrl: '', clientId: '', clientSecret: '' })
  const [since, setSince] = useState('')
  const [seeded, setSeeded] = useState(false)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null)
  const [testing, setTesting] = useState(false)
  const submission = useSubmit()

  // The stored connection fills the form once loaded.
  useEffect(() => {
    if (seeded || !data) return
    setSeeded(true)
    if (data.connected) {
      setForm({
        flowUrl: data.flowUrl ?? '',
        tokenUrl: data.tokenUrl ?? '',
        clientId: data.clientId ?? '',
        clientSecret: '',
        directoryUrl: data.directoryUrl ?? '',
      })
    }
  }, [data, seeded])

  const body = (): PAConnectionForm => {
    const b: PAConnectionForm = { ...form }
    if (!b.clientSecret) delete b.clientSecret
    if (!b.directoryUrl) delete b.directoryUrl
    if (since) b.since = since
    return b
  }
  const set = (field: keyof PAConnectionForm) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value
    setForm((f) => ({ ...f, [field]: value }))
    setFieldErrors((errs) => ({ ...errs, [field]: '' }))
  }

  const onTest = async () => {
    setTesting(true)
    setTest(null)
    const out = await testPA(body())
    setTesting(false)
    setFieldErrors(out.fieldErrors)
    setTest({ ok: out.ok, message: out.message })
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    await submission.run(async () => {
      const out = await connectPA(body())
      if (out.ok) {
        setForm((f) => ({ ...f, clientSecret: '' }))
        setTest(null)
        return null
      }
      setFieldErrors(out.fieldErrors)
      return out.message
    })
  }

  const connected = !!data?.connected
  return (
    <Paper component="form" withBorder p="md" onSubmit={onSubmit} noValidate aria-labelledby="einvoicing-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="einvoicing-title">
          {EINVOICING_TEXTS.title}
        </Title>
        <Text size="sm" c="dimmed">
          {EINVOICING_TEXTS.intro}
        </Text>
        <Text size="sm" role="status" aria-label="État de la connexion">
          {data?.connected
            ? connectedLine(data.connectedAt ?? '', data.depositFrom ?? '', data.deposited, data.failing)
            : data
              ? EINVOICING_TEXTS.notConnected
              : null}
        </Text>
        {data?.connected && !data.secretReadable ? (
          <Alert color="red">{EINVOICING_TEXTS.secretUnreadable}</Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={EINVOICING_TEXTS.flowUrl}
            description={EINVOICING_TEXTS.flowUrlHint}
            value={form.flowUrl}
            onChange={set('flowUrl')}
            error={fieldErrors.flowUrl || undefined}
            required
          />
          <TextInput
            label={EINVOICING_TEXTS.tokenUrl}
            value={form.tokenUrl}
            onChange={set('tokenUrl')}
            error={fieldErrors.tokenUrl || undefined}
            required
          />
          <TextInput
            label={EINVOICING_TEXTS.clientId}
            value={form.clientId}
            onChange={set('clientId')}
            error={fieldErrors.clientId || undefined}
            autoComplete="off"
            required
          />
          <PasswordInput
            label={EINVOICING_TEXTS.clientSecret}
            description={connected ? EINVOICING_TEXTS.secretKept : undefined}
            value={form.clientSecret ?? ''}
            onChange={set('clientSecret')}
            error={fieldErrors.clientSecret || undefined}
            autoComplete="new-password"
            required={!connected}
          />
          <TextInput
            label={EINVOICING_TEXTS.directoryUrl}
            value={form.directoryUrl ?? ''}
            onChange={set('directoryUrl')}
            error={fieldErrors.directoryUrl || undefined}
          />
          <TextInput
            label={EINVOICING_TEXTS.since}
            description={EINVOICING_TEXTS.sinceHint}
            type="date"
            value={since}
            onChange={(e) => setSince(e.currentTarget.value)}
            error={fieldErrors.since || undefined}
          />
        </SimpleGrid>
        {test ? (
          <Alert color={test.ok ? 'green' : 'red'} role="status" aria-label="Résultat du test">
            {test.message}
          </Alert>
        ) : null}
        <SubmitFailure message={submission.failure} />
        {data?.connected && data.webhookPath ? (
          <Stack gap={4}>
            <Text size="sm">{EINVOICING_TEXTS.webhook}</Text>
            <Code block aria-label="Adresse de rappel">{`${window.location.origin}${data.webhookPath}`}</Code>
            <Code block aria-label="Jeton de rappel">{`Authorization: Bearer ${data.webhookToken ?? ''}`}</Code>
          </Stack>
        ) : null}
        <Group justify="flex-end">
          {connected ? (
            <Button variant="subtle" color="red" onClick={() => void disconnectPA()} disabled={submission.submitting}>
              {EINVOICING_TEXTS.disconnect}
            </Button>
          ) : null}
          <Button variant="default" onClick={() => void onTest()} disabled={testing || submission.submitting}>
            {testing ? EINVOICING_TEXTS.testing : EINVOICING_TEXTS.test}
          </Button>
          <Button type="submit" disabled={submission.submitting}>
            {submission.label(EINVOICING_TEXTS.save)}
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
