import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { formatEUR } from '../format'
import { useSubmit } from '../forms/useSubmit'
import {
  type FeeTerms,
  type FeesOutcome,
  deleteException,
  loadFees,
  saveException,
  saveTerms,
  useFees,
} from '../store/fees'
import { useDistributors, useUser } from '../store/hooks'
import { may } from '../team/roles'

/** What a NumberInput holds: a number, or the text being typed ("9,5"), '' when empty. */
type Raw = string | number

/** The daemon's message for an amount it refuses (core/fees MsgAmount), repeated for a text that is no number. */
export const MSG_AMOUNT = 'Veuillez saisir un montant correct (au plus 10 000 €, deux décimales)'

/** A NumberInput's value as a number: '' is 0, "9,5" 9.5, anything else NaN. */
export function euros(v: Raw): number {
  if (typeof v === 'number') return v
  const t = v.trim().replace(',', '.')
  return t === '' ? 0 : /^\d+(\.\d*)?$/.test(t) ? Number(t) : Number.NaN
}

const money = { decimalScale: 2, decimalSeparator: ',', min: 0, max: 10000, hideControls: true } as const

/**
 * The producer's minimum order and delivery fees (PRODUCT §16 "Minimum order
 * and delivery fees"): a minimum amount of goods per delivery, a flat fee,
 * fees by distance band, free above a threshold, and the exceptions for one
 * shop (its own minimum, or its own fee: 0 delivers it free). Each save
 * answers the settings; the daemon's field messages show under the fields.
 */
export function DeliveryTermsForm() {
  const { settings } = useFees()
  // The commercial terms are the owners' and sales' (issue 41).
  const mayChange = may(useUser()?.role, 'set-delivery-terms')
  useEffect(() => {
    if (mayChange) void loadFees()
  }, [mayChange])
  if (!settings || !mayChange) return null
  return <TermsForm key={JSON.stringify(settings.terms)} terms={settings.terms} />
}

interface RawTerms {
  minimum: Raw
  fee: Raw
  freeAbove: Raw
  bands: { upToKm: Raw; fee: Raw }[]
}

/** The terms to send, and the fields whose text is no amount. */
function parse(t: RawTerms): { terms: FeeTerms; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const amount = (field: string, v: Raw) => {
    const n = euros(v)
    if (Number.isNaN(n)) errors[field] = MSG_AMOUNT
    return n
  }
  const terms = {
    minimum: amount('minimum', t.minimum),
    fee: amount('fee', t.fee),
    freeAbove: amount('freeAbove', t.freeAbove),
    bands: t.bands.map((b, i) => ({ upToKm: euros(b.upToKm), fee: amount(`bands[${i}].fee`, b.fee) })),
  }
  return { terms, errors }
}

/** The terms as the store's snapshot holds them (read-only). */
type ShownTerms = Readonly<Omit<FeeTerms, 'bands'>> & { readonly bands: readonly Readonly<FeeTerms['bands'][number]>[] }

function TermsForm({ terms }: { terms: ShownTerms }) {
  const [t, setT] = useState<RawTerms>(() => ({ ...terms, bands: terms.bands.map((b) => ({ ...b })) }))
  const [errors, setErrors] = useState<NonNullable<FeesOutcome>>({})
  const submission = useSubmit()
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = parse(t)
    if (Object.keys(parsed.errors).length > 0) {
      setErrors(parsed.errors)
      return
    }
    await submission.run(async () => {
      setErrors((await saveTerms(parsed.terms)) ?? {})
    })
  }
  const setBand = (i: number, field: 'upToKm' | 'fee', v: Raw) =>
    setT({ ...t, bands: t.bands.map((b, k) => (k === i ? { ...b, [field]: v } : b)) })
  const lastKm = t.bands.length > 0 ? euros(t.bands[t.bands.length - 1].upToKm) || 0 : 0

  return (
    <Paper component="section" withBorder p="md" aria-labelledby="fees-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="fees-title">
          Minimum de commande et frais de livraison
        </Title>
        <Text size="sm" c="dimmed">
          Une proposition ou une acceptation qui laisserait une livraison sous le minimum est refusée. Les frais d'une
          livraison sont ceux de la tranche de distance du commerce (par la route, estimée depuis votre ferme), sinon le
          forfait ; ils sont offerts à partir du seuil de gratuité, et facturés avec la TVA des marchandises livrées.
        </Text>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <NumberInput
                label="Minimum par livraison (€ HT)"
                {...money}
                value={t.minimum}
                onChange={(v) => setT({ ...t, minimum: v })}
                error={errors.minimum}
              />
              <NumberInput
                label="Frais de livraison forfaitaires (€ HT)"
                {...money}
                value={t.fee}
                onChange={(v) => setT({ ...t, fee: v })}
                error={errors.fee}
              />
              <NumberInput
                label="Livraison offerte à partir de (€ HT)"
                description="0 : jamais"
                {...money}
                value={t.freeAbove}
                onChange={(v) => setT({ ...t, freeAbove: v })}
                error={errors.freeAbove}
              />
            </SimpleGrid>
            <Text size="sm" fw={500}>
              Frais par distance
            </Text>
            {t.bands.map((b, i) => (
              <Group key={i} align="flex-end" wrap="nowrap">
                <NumberInput
                  label={`Tranche ${i + 1} : jusqu'à (km)`}
                  min={1}
                  max={1000}
                  allowDecimal={false}
                  hideControls
                  value={b.upToKm}
                  onChange={(v) => setBand(i, 'upToKm', v)}
                  error={errors[`bands[${i}].upToKm`]}
                />
                <NumberInput
                  label="Frais (€ HT)"
                  {...money}
                  value={b.fee}
                  onChange={(v) => setBand(i, 'fee', v)}
                  error={errors[`bands[${i}].fee`]}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={`Supprimer la tranche ${i + 1}`}
                  onClick={() => setT({ ...t, bands: t.bands.filter((_, k) => k !== i) })}
                >
                  ×
                </ActionIcon>
              </Group>
            ))}
            {errors.bands ? (
              <Text size="sm" c="red">
                {errors.bands}
              </Text>
            ) : null}
            <Group justify="space-between">
              <Button
                variant="light"
                disabled={t.bands.length >= 10}
                onClick={() => setT({ ...t, bands: [...t.bands, { upToKm: lastKm + 10, fee: t.fee }] })}
              >
                Ajouter une tranche
              </Button>
              <Button type="submit" disabled={submission.submitting}>
                {submission.label('Enregistrer')}
              </Button>
            </Group>
          </Stack>
        </form>
        <Exceptions />
      </Stack>
    </Paper>
  )
}

/** The exceptions per shop: the list, and a form to add or replace one. */
function Exceptions() {
  const { settings } = useFees()
  const shops = useDistributors()
  const [shop, setShop] = useState<string | null>(null)
  const [minimum, setMinimum] = useState<Raw>('')
  const [fee, setFee] = useState<Raw>('')
  const [errors, setErrors] = useState<NonNullable<FeesOutcome>>({})
  const submission = useSubmit()
  const exceptions = settings?.exceptions ?? []
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!shop) return
    const lo = minimum === '' ? undefined : euros(minimum)
    const price = fee === '' ? undefined : euros(fee)
    if (Number.isNaN(lo) || Number.isNaN(price)) {
      setErrors({
        ...(Number.isNaN(lo) ? { minimum: MSG_AMOUNT } : {}),
        ...(Number.isNaN(price) ? { fee: MSG_AMOUNT } : {}),
      })
      return
    }
    await submission.run(async () => {
      const out = await saveException(shop, lo, price)
      setErrors(out ?? {})
      if (!out) {
        setShop(null)
        setMinimum('')
        setFee('')
      }
    })
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Exceptions par commerce
      </Text>
      {exceptions.length > 0 ? (
        <Table aria-label="Exceptions par commerce">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Commerce</Table.Th>
              <Table.Th>Minimum</Table.Th>
              <Table.Th>Frais</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {exceptions.map((e) => (
              <Table.Tr key={e.shopId}>
                <Table.Td>{e.shopName}</Table.Td>
                <Table.Td>{e.minimum === undefined ? 'le vôtre' : formatEUR(e.minimum)}</Table.Td>
                <Table.Td>
                  {e.fee === undefined ? 'les vôtres' : e.fee === 0 ? 'livraison offerte' : formatEUR(e.fee)}
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Supprimer l'exception de ${e.shopName}`}
                    onClick={() => void deleteException(e.shopId)}
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          Aucune exception : vos conditions valent pour tous les commerces.
        </Text>
      )}
      <form onSubmit={onSubmit} noValidate aria-label="Ajouter une exception">
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          <Select
            label="Commerce"
            placeholder="Choisir un commerce"
            data={shops.map((s) => ({ value: s._id, label: s.name }))}
            value={shop}
            onChange={setShop}
            searchable
            nothingFoundMessage="Aucun commerce avec qui vous échangez"
          />
          <NumberInput
            label="Son minimum (€ HT)"
            placeholder="le vôtre"
            {...money}
            value={minimum}
            onChange={setMinimum}
            error={errors.minimum}
          />
          <NumberInput
            label="Ses frais (€ HT)"
            description="0 : livraison offerte"
            placeholder="les vôtres"
            {...money}
            value={fee}
            onChange={setFee}
            error={errors.fee}
          />
          <Button type="submit" mt="lg" disabled={!shop || submission.submitting}>
            {submission.label("Enregistrer l'exception")}
          </Button>
        </SimpleGrid>
      </form>
    </Stack>
  )
}
