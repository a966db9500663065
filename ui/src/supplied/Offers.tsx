import { Anchor, Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core'
import { type FormEvent, useCallback, useEffect, useState } from 'react'
import { Link } from 'wouter'
import { formatEUR, formatMonthYear, formatQuantity } from '../format'
import { useSubmit } from '../forms/useSubmit'
import { paths } from '../routing'
import { type Offer, listOffers, takeOffer } from '../store/offers'
import { unitDigits, unitFieldName, unitLabel } from '../units'
import { distanceText } from './NearbyProducers'
import { LabelBadges } from './SuppliedProductLine'

/** The French texts of the offers a shop sees. */
export const OFFER_TEXTS = {
  nearNeed: 'Offres des producteurs pour ce mois',
  onPage: 'Offres en cours',
  take: 'Prendre',
  quantity: 'Quantité',
  left: 'reste',
  // The UI's own check; the daemon says the same (core/offers, trade).
  positive: 'Veuillez saisir une quantité supérieure à zéro',
  tooMuch: (left: string) => `Il ne reste que ${left} sur cette offre.`,
} as const

/** A quantity field's value: '' is 0, "1,5" 1.5. */
function num(v: string | number): number {
  if (typeof v === 'number') return v
  const t = v.trim().replace(',', '.')
  return t === '' ? 0 : Number(t)
}

/**
 * One offer as a shop sees it, with what it takes of it: the producer
 * (linking to its page, unless `ownPage`), the product, its labels, the
 * month, what is left and the price; a quantity and "Prendre".
 */
export function OfferLine({ offer, ownPage, onTaken }: { offer: Offer; ownPage?: boolean; onTaken: () => void }) {
  const unit = offer.suppliedProduct.unit
  const [quantity, setQuantity] = useState<string | number>(offer.remaining)
  const [error, setError] = useState<string | undefined>()
  const submit = useSubmit()
  const left = formatQuantity(offer.remaining, unit)
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    const q = num(quantity)
    if (!(q > 0)) return setError(OFFER_TEXTS.positive)
    if (q > offer.remaining) return setError(OFFER_TEXTS.tooMuch(left))
    setError(undefined)
    void submit.run(async () => {
      const out = await takeOffer(offer._id, q)
      if (out.ok) onTaken()
      else setError(out.errors.quantity)
    })
  }
  const title = `${offer.suppliedProduct.name}, ${formatMonthYear(offer.month)}`
  return (
    <form onSubmit={onSubmit} aria-label={`Offre : ${title}`}>
      <Stack gap={2}>
        <Group gap="xs">
          {ownPage ? null : (
            <Anchor component={Link} href={paths.disProducer(offer.producer)} fw={600}>
              {offer.producerName}
            </Anchor>
          )}
          <Text size="sm" c="dimmed">
            {distanceText(offer.distanceKm)}
          </Text>
        </Group>
        <Group gap="xs">
          <Text size="sm" fw={ownPage ? 600 : undefined}>
            {offer.suppliedProduct.name} · {offer.suppliedProduct.saleUnit} · {formatMonthYear(offer.month)}
          </Text>
          <LabelBadges product={offer.suppliedProduct} />
        </Group>
        <Text size="sm">
          {OFFER_TEXTS.left} {left} · {formatEUR(offer.price)} HT / {unitLabel(unit)}
        </Text>
        <Group gap="xs" align="flex-start">
          <NumberInput
            aria-label={`${OFFER_TEXTS.quantity} (${unitFieldName(unit)})`}
            value={quantity}
            onChange={setQuantity}
            decimalSeparator=","
            decimalScale={unitDigits(unit)}
            min={0}
            hideControls
            w={120}
            size="xs"
            rightSection={<Text size="xs">{unitLabel(unit)}</Text>}
            error={error}
          />
          <Button type="submit" size="xs" disabled={submit.submitting}>
            {submit.label(OFFER_TEXTS.take)}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

/** Reads the offers of a filter when shown, and again after a take. */
function useOfferList(filter: { productType?: string; month?: string; producer?: string }) {
  const [offers, setOffers] = useState<Offer[] | null>(null)
  const [round, setRound] = useState(0)
  const { productType, month, producer } = filter
  useEffect(() => {
    const abort = new AbortController()
    listOffers({ productType, month, producer }, abort.signal)
      .then(setOffers)
      .catch(() => {
        // Offers are an aside of the need and of the page: unread, they are not shown.
      })
    return () => abort.abort()
  }, [productType, month, producer, round])
  const reload = useCallback(() => setRound((r) => r + 1), [])
  return { offers, reload }
}

/**
 * For a shop, under a need's negotiations: the producers' offers of the
 * need's type and month, nearest first, each taken in one step (PRODUCT §3
 * "Offers"). Nothing when there is none.
 */
export function OffersForNeed({ productType, month }: { productType: string; month: string }) {
  const { offers, reload } = useOfferList({ productType, month })
  // Nothing when there is none, or when they could not be read: the need's panel goes on without them.
  if (!offers || offers.length === 0) return null
  return (
    <Paper withBorder p="sm" role="region" aria-label={OFFER_TEXTS.nearNeed}>
      <Stack gap="sm">
        <Title order={5}>{OFFER_TEXTS.nearNeed}</Title>
        {offers.map((o) => (
          <OfferLine key={o._id} offer={o} onTaken={reload} />
        ))}
      </Stack>
    </Paper>
  )
}

/** On a producer's page for shops: its offers with something left. Nothing when there is none. */
export function ProducerOffers({ producerId }: { producerId: string }) {
  const { offers, reload } = useOfferList({ producer: producerId })
  if (!offers || offers.length === 0) return null
  return (
    <Stack gap="sm" role="region" aria-label={OFFER_TEXTS.onPage}>
      <Title order={2}>{OFFER_TEXTS.onPage}</Title>
      {offers.map((o) => (
        <Paper key={o._id} withBorder p="sm">
          <OfferLine offer={o} ownPage onTaken={reload} />
        </Paper>
      ))}
    </Stack>
  )
}
