import { Alert, Button, Card, Group, NativeSelect, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { formatEUR, formatMonthYear, formatQuantity } from '../format'
import { useSubmit } from '../forms/useSubmit'
import { useFamilies } from '../store/hooks'
import {
  type Offer,
  loadMyOffers,
  postOffer,
  suggestType,
  suggestionOutcome,
  useOffers,
  withdrawOffer,
} from '../store/offers'
import { type SuppliedProduct, useSupplied } from '../store/supplied'
import { UNITS, unitDigits, unitLabel } from '../units'

/** The French texts of the producer's offers and suggestions. */
export const MY_OFFERS_TEXTS = {
  title: 'Mes offres',
  intro:
    'Une disponibilité ou un surplus (« 200 kg de pommes Reinette en février ») : les boutiques la voient près de leurs besoins et la prennent en une fois, besoin et engagement compris.',
  product: 'Produit',
  month: 'Mois',
  quantity: 'Quantité offerte',
  price: 'Prix HT',
  post: 'Publier l’offre',
  none: 'Aucune offre en cours.',
  withdraw: 'Retirer l’offre',
  taken: 'pris',
  noProduct: 'Ajoutez d’abord un produit : une offre porte sur l’un de vos produits.',
  // The UI's own checks; the daemon says the same (core/offers, trade).
  productNeeded: 'Choisissez l’un de vos produits en vente.',
  quantityNeeded: 'Veuillez saisir une quantité supérieure à zéro',
  priceNeeded: 'Veuillez saisir un prix supérieur à zéro',
  suggestTitle: 'Un type manque au catalogue ?',
  suggestIntro: 'Suggérez-le : un administrateur l’ajoute, ou vous indique le type qui en tient lieu.',
  suggestName: 'Nom du type',
  suggestFamily: 'Famille',
  suggestUnit: 'Unité de besoin',
  suggestNote: 'Remarque (facultatif)',
  suggest: 'Suggérer',
  nameNeeded: 'Nommez le type de produit (80 caractères au plus).',
} as const

/** The months an offer may be for: this one and the 12 next, as "2027-02". */
function monthChoices(now = new Date()): { value: string; label: string }[] {
  return Array.from({ length: 13 }, (_, i) => {
    const d = new Date(now.getFullYear(), now.getMonth() + i, 1)
    const value = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
    return { value, label: formatMonthYear(`${value}-01`) }
  })
}

function num(v: string | number): number {
  if (typeof v === 'number') return v
  const t = v.trim().replace(',', '.')
  return t === '' ? 0 : Number(t)
}

/**
 * The producer's offers (PRODUCT §3 "Offers"): posted from one of its
 * products for a month, with a quantity and a price; listed with what shops
 * took; withdrawn.
 */
export function MyOffers() {
  const { mine: products } = useSupplied()
  const { mine } = useOffers()
  useEffect(() => {
    void loadMyOffers()
  }, [])
  return (
    <Stack gap="sm" role="region" aria-label={MY_OFFERS_TEXTS.title}>
      <div>
        <Title order={2}>{MY_OFFERS_TEXTS.title}</Title>
        <Text c="dimmed" size="sm">
          {MY_OFFERS_TEXTS.intro}
        </Text>
      </div>
      {products.length === 0 ? (
        <Text>{MY_OFFERS_TEXTS.noProduct}</Text>
      ) : (
        <OfferForm products={products as SuppliedProduct[]} />
      )}
      {mine.length === 0 ? <Text c="dimmed">{MY_OFFERS_TEXTS.none}</Text> : null}
      {mine.map((o) => (
        <OfferRow key={o._id} offer={o as Offer} />
      ))}
    </Stack>
  )
}

function OfferRow({ offer }: { offer: Offer }) {
  const unit = offer.suppliedProduct.unit
  const submit = useSubmit()
  return (
    <Card
      withBorder
      padding="xs"
      role="article"
      aria-label={`${offer.suppliedProduct.name}, ${formatMonthYear(offer.month)}`}
    >
      <Group justify="space-between">
        <Text size="sm">
          {offer.suppliedProduct.name} · {formatMonthYear(offer.month)} · {formatQuantity(offer.quantity, unit)} à{' '}
          {formatEUR(offer.price)} HT / {unitLabel(unit)} · {MY_OFFERS_TEXTS.taken}{' '}
          {formatQuantity(offer.quantity - offer.remaining, unit)}
        </Text>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          disabled={submit.submitting}
          onClick={() => void submit.run(async () => void (await withdrawOffer(offer._id)))}
        >
          {submit.label(MY_OFFERS_TEXTS.withdraw)}
        </Button>
      </Group>
    </Card>
  )
}

function OfferForm({ products }: { products: SuppliedProduct[] }) {
  const months = useMemo(() => monthChoices(), [])
  const [product, setProduct] = useState('')
  const [month, setMonth] = useState(months[1].value)
  const [quantity, setQuantity] = useState<string | number>('')
  const [price, setPrice] = useState<string | number>('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const submit = useSubmit()
  const unit = products.find((p) => p._id === product)?.unit
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    const local: Record<string, string> = {}
    if (!product) local.suppliedProduct = MY_OFFERS_TEXTS.productNeeded
    if (!(num(quantity) > 0)) local.quantity = MY_OFFERS_TEXTS.quantityNeeded
    if (!(num(price) > 0)) local.price = MY_OFFERS_TEXTS.priceNeeded
    setErrors(local)
    if (Object.keys(local).length > 0) return
    void submit.run(async () => {
      const out = await postOffer({ suppliedProduct: product, month, quantity: num(quantity), price: num(price) })
      if (!out.ok) setErrors(out.errors)
      else {
        setQuantity('')
        setPrice('')
      }
    })
  }
  return (
    <Card withBorder component="form" onSubmit={onSubmit} aria-label={MY_OFFERS_TEXTS.post}>
      <Group align="flex-start" grow>
        <NativeSelect
          label={MY_OFFERS_TEXTS.product}
          value={product}
          onChange={(e) => setProduct(e.currentTarget.value)}
          data={[{ value: '', label: '—' }, ...products.map((p) => ({ value: p._id, label: p.name }))]}
          error={errors.suppliedProduct}
        />
        <NativeSelect
          label={MY_OFFERS_TEXTS.month}
          value={month}
          onChange={(e) => setMonth(e.currentTarget.value)}
          data={months}
          error={errors.month}
        />
        <NumberInput
          label={`${MY_OFFERS_TEXTS.quantity} (${unitLabel(unit)})`}
          value={quantity}
          onChange={setQuantity}
          decimalSeparator=","
          decimalScale={unitDigits(unit)}
          min={0}
          hideControls
          error={errors.quantity}
        />
        <NumberInput
          label={`${MY_OFFERS_TEXTS.price} (€ / ${unitLabel(unit)})`}
          value={price}
          onChange={setPrice}
          decimalSeparator=","
          decimalScale={2}
          min={0}
          hideControls
          error={errors.price}
        />
      </Group>
      {submit.failure ? <Alert color="red">{submit.failure}</Alert> : null}
      <Button type="submit" mt="sm" disabled={submit.submitting}>
        {submit.label(MY_OFFERS_TEXTS.post)}
      </Button>
    </Card>
  )
}

/**
 * A producer suggests a product type the catalogue lacks (PRODUCT §3
 * "Suggesting a type") and reads the answers.
 */
export function SuggestType() {
  const families = useFamilies()
  const { suggestions } = useOffers()
  const [name, setName] = useState('')
  const [family, setFamily] = useState('')
  const [unit, setUnit] = useState('kg')
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const submit = useSubmit()
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (name.trim() === '') return setErrors({ name: MY_OFFERS_TEXTS.nameNeeded })
    void submit.run(async () => {
      const out = await suggestType({ name, family: family || (families[0]?._id ?? ''), unit, note })
      if (!out.ok) setErrors(out.errors)
      else {
        setErrors({})
        setName('')
        setNote('')
      }
    })
  }
  return (
    <Stack gap="sm" role="region" aria-label={MY_OFFERS_TEXTS.suggestTitle}>
      <div>
        <Title order={2}>{MY_OFFERS_TEXTS.suggestTitle}</Title>
        <Text c="dimmed" size="sm">
          {MY_OFFERS_TEXTS.suggestIntro}
        </Text>
      </div>
      <Card withBorder component="form" onSubmit={onSubmit} aria-label={MY_OFFERS_TEXTS.suggestTitle}>
        <Group align="flex-start" grow>
          <TextInput
            label={MY_OFFERS_TEXTS.suggestName}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={80}
            error={errors.name}
          />
          <NativeSelect
            label={MY_OFFERS_TEXTS.suggestFamily}
            value={family || (families[0]?._id ?? '')}
            onChange={(e) => setFamily(e.currentTarget.value)}
            data={families.map((f) => ({ value: f._id, label: f.name }))}
            error={errors.family}
          />
          <NativeSelect
            label={MY_OFFERS_TEXTS.suggestUnit}
            value={unit}
            onChange={(e) => setUnit(e.currentTarget.value)}
            data={Object.entries(UNITS).map(([id, u]) => ({ value: id, label: u.singular }))}
            error={errors.unit}
          />
        </Group>
        <TextInput
          mt="sm"
          label={MY_OFFERS_TEXTS.suggestNote}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={300}
          error={errors.note}
        />
        {submit.failure ? <Alert color="red">{submit.failure}</Alert> : null}
        <Button type="submit" mt="sm" disabled={submit.submitting}>
          {submit.label(MY_OFFERS_TEXTS.suggest)}
        </Button>
      </Card>
      {suggestions.map((s) => (
        <Text key={s._id} size="sm">
          {s.name} : {suggestionOutcome(s)}
        </Text>
      ))}
    </Stack>
  )
}
