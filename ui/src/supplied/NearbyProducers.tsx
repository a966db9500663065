import { Anchor, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core'
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import { api, errorMessage } from '../api'
import { paths } from '../routing'
import type { components } from '../schema.gen'
import { useFamilies } from '../store/hooks'
import { LABELS } from '../store/supplied'
import { LabelBadges } from './SuppliedProductLine'

export type FoundProducer = components['schemas']['SuppliedFound']

/** The French texts of the search. */
export const NEARBY_TEXTS = {
  open: 'Trouver des producteurs',
  title: 'Producteurs de ce produit',
  titleAny: 'Producteurs',
  family: 'Famille',
  anyFamily: 'Toutes',
  label: 'Label',
  anyLabel: 'Tous',
  distance: 'Distance',
  anyDistance: 'Toutes',
  none: 'Aucun producteur ne vend ce produit avec ces critères.',
} as const

const DISTANCES = [20, 50, 100, 200]

/** "à 30 km", or nothing for a producer not placed. */
export function distanceText(km: number | null | undefined): string {
  if (km === null || km === undefined) return ''
  return `à ${Math.round(km).toLocaleString('fr-FR')} km`
}

/**
 * For a shop, under a need's negotiations: the producers whose own products
 * are of the need's type, filtered by label and road distance, nearest
 * first, each linking to its page (PRODUCT §3 "Finding producers";
 * `GET /api/supplied-products/search`). Without a type (under the map of
 * the dashboard), by family too. Read only once the shop opens it.
 */
export function NearbyProducers({ productType }: { productType?: string }) {
  const families = useFamilies()
  const [open, setOpen] = useState(false)
  const [family, setFamily] = useState('')
  const [label, setLabel] = useState('')
  const [km, setKm] = useState('0')
  const [found, setFound] = useState<FoundProducer[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!open) return
    const abort = new AbortController()
    const query = new URLSearchParams(productType ? { productType, label, km } : { family, label, km })
    api
      .get<FoundProducer[]>(`/api/supplied-products/search?${query}`, abort.signal)
      .then((list) => {
        setFound(Array.isArray(list) ? list : [])
        setError(null)
      })
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(err))
      })
    return () => abort.abort()
  }, [open, productType, family, label, km])

  if (!open)
    return (
      <Button variant="subtle" size="xs" onClick={() => setOpen(true)}>
        {NEARBY_TEXTS.open}
      </Button>
    )
  return (
    <Paper withBorder p="sm" role="region" aria-label={productType ? NEARBY_TEXTS.title : NEARBY_TEXTS.titleAny}>
      <Stack gap="xs">
        <Title order={5}>{productType ? NEARBY_TEXTS.title : NEARBY_TEXTS.titleAny}</Title>
        <Group grow>
          {productType ? null : (
            <NativeSelect
              label={NEARBY_TEXTS.family}
              value={family}
              onChange={(e) => setFamily(e.currentTarget.value)}
              data={[
                { value: '', label: NEARBY_TEXTS.anyFamily },
                ...families.map((f) => ({ value: f._id, label: f.name })),
              ]}
            />
          )}
          <NativeSelect
            label={NEARBY_TEXTS.label}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            data={[{ value: '', label: NEARBY_TEXTS.anyLabel }, ...LABELS.map((l) => ({ value: l.id, label: l.name }))]}
          />
          <NativeSelect
            label={NEARBY_TEXTS.distance}
            value={km}
            onChange={(e) => setKm(e.currentTarget.value)}
            data={[
              { value: '0', label: NEARBY_TEXTS.anyDistance },
              ...DISTANCES.map((d) => ({ value: String(d), label: `${d} km` })),
            ]}
          />
        </Group>
        {error ? <Text c="red">{error}</Text> : null}
        {found && found.length === 0 ? <Text c="dimmed">{NEARBY_TEXTS.none}</Text> : null}
        {(found ?? []).map((f) => (
          <Stack key={f.producer} gap={2}>
            <Group gap="xs">
              <Anchor component={Link} href={paths.disProducer(f.producer)} fw={600}>
                {f.name}
              </Anchor>
              <Text size="sm" c="dimmed">
                {distanceText(f.distanceKm)}
              </Text>
            </Group>
            {f.products.map((p) => (
              <Group key={p._id} gap="xs">
                <Text size="sm">
                  {p.name} · {p.saleUnit}
                </Text>
                <LabelBadges product={p} />
              </Group>
            ))}
          </Stack>
        ))}
      </Stack>
    </Paper>
  )
}
