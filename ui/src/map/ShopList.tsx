// The map without a pointer (WCAG 2.1.1, RGAA 7.3): every shop the map
// draws, as a list under it — its name, the town it is in and, for a
// producer, the link to its needs that a click on its pin follows. Closed
// by default; its button says how many shops it holds.
import { Anchor, Button, Group, List, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useId, useMemo } from 'react'
import { Link } from 'wouter'
import type { DistributorEntry } from '../types'
import { CITIES, type CityEntry, distanceKm } from './cities'
import { type LonLat, shopLonLat } from './geo'

/** The commune nearest to a point (the city reference of the map). */
export function nearestCity(lonLat: LonLat, cities: readonly CityEntry[] = CITIES): CityEntry | null {
  let best: CityEntry | null = null
  let bestKm = Infinity
  for (const city of cities) {
    const km = distanceKm(lonLat, city.lonLat)
    if (km < bestKm) {
      best = city
      bestKm = km
    }
  }
  return best
}

/** The shops the map draws (those with a position), by name, each with its town. */
export function listedShops(
  shops: readonly DistributorEntry[],
  cities: readonly CityEntry[] = CITIES,
): { shop: DistributorEntry; town: string | null }[] {
  return shops
    .flatMap((shop) => {
      const lonLat = shopLonLat(shop)
      return lonLat ? [{ shop, town: nearestCity(lonLat, cities)?.name ?? null }] : []
    })
    .sort((a, b) => a.shop.name.localeCompare(b.shop.name, 'fr'))
}

function Shops({
  shops,
  ownShopId,
  shopLink,
}: {
  shops: readonly DistributorEntry[]
  ownShopId?: string
  shopLink?: (shopId: string) => string
}) {
  const rows = useMemo(() => listedShops(shops), [shops])
  if (rows.length === 0) return <Text size="sm">Aucun magasin n'est placé sur la carte.</Text>
  return (
    <List listStyleType="none" spacing={6} data-testid="shop-list">
      {rows.map(({ shop, town }) => (
        <List.Item key={shop._id}>
          <Group gap="sm" wrap="nowrap" justify="space-between">
            <Text>
              <Text span fw={600}>
                {shop.name}
                {shop._id === ownShopId ? ' (vous)' : ''}
              </Text>
              {town ? ` — ${town}` : ''}
            </Text>
            {shopLink ? (
              <Anchor
                component={Link}
                href={shopLink(shop._id)}
                size="sm"
                aria-label={`Voir les besoins de ${shop.name}`}
              >
                Voir ses besoins
              </Anchor>
            ) : null}
          </Group>
        </List.Item>
      ))}
    </List>
  )
}

/** "Liste des magasins (n)": the map's shops as a list, shown on demand. */
export function ShopList(props: {
  shops: readonly DistributorEntry[]
  ownShopId?: string
  shopLink?: (shopId: string) => string
}) {
  const [opened, { toggle }] = useDisclosure(false)
  const id = useId()
  const count = props.shops.filter((shop) => shopLonLat(shop)).length
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="subtle" size="compact-sm" aria-expanded={opened} aria-controls={id} onClick={toggle}>
          {opened ? 'Masquer la liste des magasins' : `Liste des magasins de la carte (${count})`}
        </Button>
      </Group>
      <div id={id} hidden={!opened}>
        {opened ? <Shops {...props} /> : null}
      </div>
    </Stack>
  )
}
