import {
  Alert,
  Button,
  Card,
  Checkbox,
  Chip,
  type ComboboxItem,
  type ComboboxParsedItem,
  Container,
  FileButton,
  Group,
  Image,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { type FormEvent, useEffect, useMemo, useState } from 'react'
import { formatEUR } from '../format'
import { useSubmit } from '../forms/useSubmit'
import { searchKey } from '../search'
import { useFamilies, useProducts } from '../store/hooks'
import {
  LABELS,
  type SuppliedInput,
  type SuppliedLabel,
  type SuppliedProduct,
  loadMine,
  retireProduct,
  saveProduct,
  savePhoto,
  useSupplied,
} from '../store/supplied'
import { MyOffers, SuggestType } from '../supplied/MyOffers'
import { LabelBadges } from '../supplied/SuppliedProductLine'
import { isWholeUnit, unitLabel } from '../units'

/** The French texts of the screen. */
export const PRODUCTS_TEXTS = {
  title: 'Mes produits',
  intro:
    'Ce que vous vendez, chacun d’un type du catalogue : les boutiques planifient leurs besoins par type, vos propositions nomment votre produit.',
  add: 'Ajouter un produit',
  none: 'Aucun produit pour l’instant.',
  edit: 'Modifier',
  photo: 'Photo',
  retire: 'Retirer de la vente',
  save: 'Enregistrer',
  cancel: 'Annuler',
  type: 'Type de produit',
  name: 'Nom du produit',
  packaging: 'Unité de vente (vide : vendu au poids ou à l’unité du type)',
  unitQuantity: 'Contenu d’une unité de vente',
  labels: 'Labels',
  certifier: 'Numéro de l’organisme certificateur',
  months: 'Mois de disponibilité',
  refPrice: 'Prix de référence HT',
  // The UI's own check, before any call; the daemon says the same (core/supplied).
  typeNeeded: 'Choisissez le type de produit dans le catalogue.',
} as const

const MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.']

/** The producer's own products (PRODUCT §3 "Producers' products"): listed, added, changed, photographed, retired. */
export function ProducerProducts() {
  const { mine, loaded, error } = useSupplied()
  const [editing, setEditing] = useState<SuppliedProduct | 'new' | null>(null)
  useEffect(() => {
    void loadMine()
  }, [])
  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1}>{PRODUCTS_TEXTS.title}</Title>
            <Text c="dimmed" size="sm">
              {PRODUCTS_TEXTS.intro}
            </Text>
          </div>
          {editing === null ? <Button onClick={() => setEditing('new')}>{PRODUCTS_TEXTS.add}</Button> : null}
        </Group>
        {error ? <Alert color="red">{error}</Alert> : null}
        {editing !== null ? (
          <ProductForm
            key={editing === 'new' ? 'new' : editing._id}
            product={editing === 'new' ? null : (editing as SuppliedProduct)}
            onDone={() => setEditing(null)}
          />
        ) : null}
        {loaded && mine.length === 0 && editing === null ? <Text>{PRODUCTS_TEXTS.none}</Text> : null}
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {mine.map((p) => (
            <ProductCard key={p._id} product={p as SuppliedProduct} onEdit={() => setEditing(p as SuppliedProduct)} />
          ))}
        </SimpleGrid>
        <MyOffers />
        <SuggestType />
      </Stack>
    </Container>
  )
}

function ProductCard({ product, onEdit }: { product: SuppliedProduct; onEdit: () => void }) {
  return (
    <Card withBorder padding="sm" data-testid="supplied-product">
      {product.photo ? (
        <Card.Section>
          <Image src={product.photo.medium} alt={`Photo : ${product.name}`} h={180} fit="cover" />
        </Card.Section>
      ) : null}
      <Stack gap={4} mt="xs">
        <Text fw={700}>{product.name}</Text>
        <Text size="sm" c="dimmed">
          {product.productTypeName} · {product.saleUnit}
        </Text>
        <LabelBadges product={product} />
        <Text size="sm">
          {product.months.length === 12 ? 'Toute l’année' : product.months.map((m) => MONTHS[m - 1]).join(', ')}
        </Text>
        {product.refPrice > 0 ? (
          <Text size="sm">
            {formatEUR(product.refPrice)} HT / {unitLabel(product.unit)}
          </Text>
        ) : null}
        <Group gap="xs" mt="xs">
          <Button size="xs" variant="light" onClick={onEdit}>
            {PRODUCTS_TEXTS.edit}
          </Button>
          <FileButton onChange={(f) => f && void savePhoto(product._id, f)} accept="image/jpeg,image/png,image/webp">
            {(props) => (
              <Button size="xs" variant="light" {...props} aria-label={`${PRODUCTS_TEXTS.photo} : ${product.name}`}>
                {PRODUCTS_TEXTS.photo}
              </Button>
            )}
          </FileButton>
          <Button size="xs" variant="subtle" color="red" onClick={() => void retireProduct(product._id)}>
            {PRODUCTS_TEXTS.retire}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}

/** The type picker's search: accents, case and ligatures aside (search.ts), within each family. */
function filterTypes({ options, search }: { options: ComboboxParsedItem[]; search: string }): ComboboxParsedItem[] {
  const key = searchKey(search)
  const hit = (item: ComboboxItem) => searchKey(item.label).includes(key)
  return options.flatMap((o): ComboboxParsedItem[] => {
    if (!('group' in o)) return hit(o) ? [o] : []
    const items = o.items.filter(hit)
    return items.length > 0 ? [{ ...o, items }] : []
  })
}

/** A number field's value: '' is 0, "1,5" 1.5. */
function num(v: string | number): number {
  if (typeof v === 'number') return v
  const t = v.trim().replace(',', '.')
  return t === '' ? 0 : Number(t)
}

function ProductForm({ product, onDone }: { product: SuppliedProduct | null; onDone: () => void }) {
  const products = useProducts()
  const families = useFamilies()
  const [type, setType] = useState<string | null>(product?.productType ?? null)
  const [name, setName] = useState(product?.name ?? '')
  const [packaging, setPackaging] = useState(product?.packaging ?? '')
  const [unitQuantity, setUnitQuantity] = useState<string | number>(product?.unitQuantity ?? 1)
  const [labels, setLabels] = useState<string[]>(product ? [...product.labels] : [])
  const [certifier, setCertifier] = useState(product?.certifier ?? '')
  const [months, setMonths] = useState<string[]>(
    product ? product.months.map(String) : Array.from({ length: 12 }, (_, i) => String(i + 1)),
  )
  const [refPrice, setRefPrice] = useState<string | number>(product?.refPrice ?? 0)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const submit = useSubmit()

  const typeData = useMemo(() => {
    const live = products.filter((p) => !p.retired)
    return families
      .map((f) => ({
        group: f.name,
        items: live.filter((p) => p.family === f._id).map((p) => ({ value: p._id, label: p.name })),
      }))
      .filter((g) => g.items.length > 0)
  }, [products, families])
  const unit = products.find((p) => p._id === type)?.unit
  const organic = labels.includes('ab') || labels.includes('conversion')

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!type) {
      setErrors({ productType: PRODUCTS_TEXTS.typeNeeded })
      return
    }
    const input: SuppliedInput = {
      productType: type,
      name,
      packaging,
      unitQuantity: packaging.trim() === '' ? 1 : num(unitQuantity),
      labels: labels as SuppliedLabel[],
      certifier: organic ? certifier : '',
      months: months.map(Number).sort((a, b) => a - b),
      refPrice: num(refPrice),
    }
    void submit.run(async () => {
      const out = await saveProduct(input, product?._id)
      if (out.errors) setErrors(out.errors)
      else onDone()
    })
  }

  return (
    <Card withBorder component="form" onSubmit={onSubmit} aria-label={product ? product.name : PRODUCTS_TEXTS.add}>
      <Stack gap="sm">
        <Select
          label={PRODUCTS_TEXTS.type}
          placeholder="Tomme, œufs, miel…"
          data={typeData}
          value={type}
          onChange={setType}
          searchable
          filter={filterTypes}
          nothingFoundMessage="Aucun type ne correspond"
          error={errors.productType}
          required
        />
        <TextInput
          label={PRODUCTS_TEXTS.name}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          error={errors.name}
          required
        />
        <Group grow align="flex-start">
          <TextInput
            label={PRODUCTS_TEXTS.packaging}
            placeholder="pièce, bocal, carton…"
            value={packaging}
            onChange={(e) => setPackaging(e.currentTarget.value)}
            maxLength={40}
            error={errors.packaging}
          />
          {packaging.trim() !== '' ? (
            <NumberInput
              label={PRODUCTS_TEXTS.unitQuantity}
              value={unitQuantity}
              onChange={setUnitQuantity}
              decimalSeparator=","
              decimalScale={isWholeUnit(unit) ? 0 : 2}
              min={0}
              hideControls
              rightSection={<Text size="sm">{unitLabel(unit)}</Text>}
              rightSectionWidth={80}
              error={errors.unitQuantity}
            />
          ) : null}
        </Group>
        <Checkbox.Group label={PRODUCTS_TEXTS.labels} value={labels} onChange={setLabels} error={errors.labels}>
          <Group gap="sm" mt={4}>
            {LABELS.map((l) => (
              <Checkbox key={l.id} value={l.id} label={l.name} />
            ))}
          </Group>
        </Checkbox.Group>
        {organic ? (
          <TextInput
            label={PRODUCTS_TEXTS.certifier}
            placeholder="FR-BIO-01"
            value={certifier}
            onChange={(e) => setCertifier(e.currentTarget.value)}
            error={errors.certifier}
            required
          />
        ) : null}
        <Chip.Group multiple value={months} onChange={setMonths}>
          <Text size="sm" fw={500}>
            {PRODUCTS_TEXTS.months}
          </Text>
          <Group gap={4}>
            {MONTHS.map((m, i) => (
              <Chip key={m} value={String(i + 1)} size="xs">
                {m}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
        {errors.months ? (
          <Text c="red" size="sm">
            {errors.months}
          </Text>
        ) : null}
        <NumberInput
          label={`${PRODUCTS_TEXTS.refPrice} (€ / ${unitLabel(unit)})`}
          value={refPrice}
          onChange={setRefPrice}
          decimalSeparator=","
          decimalScale={2}
          min={0}
          hideControls
          error={errors.refPrice}
        />
        {submit.failure ? <Alert color="red">{submit.failure}</Alert> : null}
        <Group>
          <Button type="submit" disabled={submit.submitting}>
            {submit.label(PRODUCTS_TEXTS.save)}
          </Button>
          <Button variant="subtle" onClick={onDone}>
            {PRODUCTS_TEXTS.cancel}
          </Button>
        </Group>
      </Stack>
    </Card>
  )
}
