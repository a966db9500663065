import {
  Accordion,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { formatMonthYear } from '../format'
import { useFormState } from '../forms/useFormState'
import { useSubmit } from '../forms/useSubmit'
import { booksPath, claimAccounting, loadAccounting, saveAccounts, useAccounting } from '../store/accounting'
import { useUser } from '../store/hooks'
import { may } from '../team/roles'
import type { UserType } from '../types'
import {
  LEDGER_FIELDS,
  LEDGER_PURPOSES,
  type LedgerAccounts,
  type LedgerField,
  validateLedger,
} from '../validation/ledger'
import { de } from '../grammar'

export const EXPORT_TEXTS = {
  title: 'Export comptable',
  producer:
    'Le fichier des écritures comptables (FEC) du mois, ventes et encaissements, les factures et avoirs au format ' +
    'Factur-X avec leur XML, et le journal des ventes, pour votre plateforme de facturation électronique et votre comptable.',
  distributor:
    'Le fichier des écritures comptables (FEC) du mois, achats et règlements, les factures et avoirs reçus au format ' +
    'Factur-X avec leur XML, et le journal des achats, pour votre comptable.',
  month: 'Mois des pièces',
  none: 'Aucune facture ni aucun paiement pour le moment.',
  accounts: "Comptes de l'export comptable",
  save: 'Enregistrer les comptes',
  loadFailed: "Impossible de charger l'export comptable",
} as const

/** "Télécharger l'export de décembre 2026". */
export const downloadLabel = (month: string) => `Télécharger l'export ${de(formatMonthYear(`${month}-01`))}`

/**
 * The export of a calendar month of the user's books (PRODUCT §16 "Export
 * for the platform and the accountant"): the zip of its FEC, the documents
 * dated in the month and the register — a producer's sales, a shop's
 * purchases —, and the accounts its FEC posts to.
 */
export function AccountingExport() {
  const user = useUser()
  const snapshot = useAccounting()
  const owner = user?._id ?? null
  // Another user's data never shows, even for the instant before it is reset.
  const mine = snapshot.owner === owner
  const data = mine ? snapshot.data : null
  const [month, setMonth] = useState<string | null>(null)
  useEffect(() => {
    if (!owner) return
    claimAccounting(owner)
    void loadAccounting()
  }, [owner])
  if (!user) return null
  const role = user.type
  // The books are the owners' and the accountants' (issue 41): another role sees no export.
  if (!may(user.role, role === 'producer' ? 'export-invoices' : 'export-purchases')) return null
  const months = data?.months ?? []
  const chosen = month && months.includes(month) ? month : (months[0] ?? null)
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {EXPORT_TEXTS.title}
        </Title>
        <Text size="sm">{EXPORT_TEXTS[role]}</Text>
        {mine && snapshot.status === 'error' ? (
          <Alert color="red" title={EXPORT_TEXTS.loadFailed}>
            {snapshot.error}
          </Alert>
        ) : null}
        {data && months.length === 0 ? (
          <Text size="sm" c="dimmed">
            {EXPORT_TEXTS.none}
          </Text>
        ) : null}
        {chosen ? (
          <Group align="end">
            <Select
              label={EXPORT_TEXTS.month}
              data={months.map((m) => ({ value: m, label: formatMonthYear(`${m}-01`) }))}
              value={chosen}
              onChange={setMonth}
              allowDeselect={false}
              w={220}
            />
            <Anchor href={booksPath(role, chosen)} download>
              {downloadLabel(chosen)}
            </Anchor>
          </Group>
        ) : null}
        {data ? (
          <Accordion chevronPosition="left" variant="default">
            <Accordion.Item value="accounts">
              <Accordion.Control>{EXPORT_TEXTS.accounts}</Accordion.Control>
              <Accordion.Panel>
                <LedgerForm
                  key={JSON.stringify(data.accounts)}
                  role={role}
                  accounts={data.accounts}
                  defaults={data.defaults}
                />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        ) : null}
      </Stack>
    </Paper>
  )
}

/** The role's accounts, each with its default as placeholder; checked as the daemon checks them. */
function LedgerForm({
  role,
  accounts,
  defaults,
}: {
  role: UserType
  accounts: Readonly<LedgerAccounts>
  defaults: Readonly<LedgerAccounts>
}) {
  const fields = LEDGER_FIELDS[role]
  const [initial] = useState<Partial<LedgerAccounts>>(() => Object.fromEntries(fields.map((f) => [f, accounts[f]])))
  const form = useFormState<Partial<LedgerAccounts>, LedgerField>(initial, validateLedger)
  const submission = useSubmit()
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    form.touchAll()
    if (Object.keys(validateLedger(form.values)).length > 0) return
    await submission.run(async () => {
      const sent = Object.fromEntries(fields.map((f) => [f, (form.values[f] ?? '').trim()]))
      const result = await saveAccounts(sent)
      if (!result.ok) form.setServerErrors(result.fieldErrors)
    })
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={EXPORT_TEXTS.accounts}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fields.map((f) => (
            <TextInput
              key={f}
              label={LEDGER_PURPOSES[f].label}
              description={`Par défaut : ${defaults[f]}`}
              placeholder={defaults[f]}
              inputMode="numeric"
              value={form.values[f] ?? ''}
              onChange={(e) => form.setValue(f, e.currentTarget.value)}
              onBlur={() => form.touch(f)}
              error={form.errorOf(f)}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.canSubmit || submission.submitting}>
            {submission.label(EXPORT_TEXTS.save)}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
