// The map without a pointer (WCAG 2.1.1, RGAA 7.3): what the map shows, as
// a list under it — each shop in view with the town it is in and, for a
// producer, the link to its needs that a click on its pin follows; where
// the map shows clusters, a button per cluster that zooms in on it, as a
// click on its circle does. Closed by default; its button says how many
// shops are in view. On a phone it may take the map's place, open, without
// its button (ShopMap's "Carte | Liste", issue 37).
import { Button, Group, List, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useId, useMemo } from 'react'
import { NeedsLink } from './NeedsLink'
import type { MapCluster } from '../types'
import { CITIES, type CityEntry, distanceKm } from './cities'
import { shopCount } from './ClusterMarker'
import type { LonLat } from './geo'
import { de } from '../grammar'

/** A shop the list names: as the map draws it. */
export interface ListedShop {
  _id: string
  name: string
  lonLat: LonLat
}

/**
 * How far a shop may be from the nearest town of the map's reference to be
 * said to be in it. The reference holds metropolitan France's towns only
 * (the three largest of each department): every metropolitan shop has one
 * well within this, an overseas shop none (the nearest would be thousands
 * of kilometres away, across an ocean).
 */
export const NEAREST_CITY_MAX_KM = 150

/** The commune nearest to a point (the city reference of the map); null when none is within NEAREST_CITY_MAX_KM. */
export function nearestCity(lonLat: LonLat, cities: readonly CityEntry[] = CITIES): CityEntry | null {
  let best: CityEntry | null = null
  let bestKm = NEAREST_CITY_MAX_KM
  for (const city of cities) {
    const km = distanceKm(lonLat, city.lonLat)
    if (km < bestKm) {
      best = city
      bestKm = km
    }
  }
  return best
}

/** The shops by name, each with its town. */
export function listedShops(
  shops: readonly ListedShop[],
  cities: readonly CityEntry[] = CITIES,
): { shop: ListedShop; town: string | null }[] {
  return shops
    .map((shop) => ({ shop, town: nearestCity(shop.lonLat, cities)?.name ?? null }))
    .sort((a, b) => a.shop.name.localeCompare(b.shop.name, 'fr'))
}

/**
 * "Zoomer sur les 12 magasins autour d'Annecy" (the town nearest to the
 * cluster); at the largest zoom, where the cluster lists its shops, "Voir
 * les 12 magasins autour d'Annecy".
 */
export function clusterButton(cluster: MapCluster, cities: readonly CityEntry[] = CITIES, zoomable = true): string {
  const town = nearestCity([cluster.longitude, cluster.latitude], cities)?.name
  const verb = zoomable ? 'Zoomer sur' : 'Voir'
  const what = cluster.count === 1 ? `${verb} le magasin` : `${verb} les ${shopCount(cluster.count)}`
  if (!town) return what
  return `${what} autour ${de(town)}`
}

function Shops({
  shops,
  clusters,
  ownShopId,
  shopLink,
  onCluster,
  zoomable,
}: {
  shops: readonly ListedShop[]
  clusters: readonly MapCluster[]
  ownShopId?: string
  shopLink?: (shopId: string) => string
  onCluster: (cluster: MapCluster) => void
  zoomable: boolean
}) {
  const rows = useMemo(() => listedShops(shops), [shops])
  const groups = useMemo(
    () =>
      [...clusters]
        .sort((a, b) => b.count - a.count)
        .map((c) => ({ cluster: c, label: clusterButton(c, CITIES, zoomable) })),
    [clusters, zoomable],
  )
  if (rows.length === 0 && groups.length === 0) return <Text size="sm">Aucun magasin dans cette zone de la carte.</Text>
  return (
    <Stack gap="xs">
      {groups.length > 0 ? (
        <>
          <Text size="sm">
            {zoomable
              ? 'Trop de magasins pour les nommer ici : zoomez sur un groupe.'
              : 'Trop de magasins pour les nommer ici : ouvrez un groupe pour voir ses magasins.'}
          </Text>
          <List listStyleType="none" spacing={6} data-testid="cluster-list">
            {groups.map(({ cluster, label }) => (
              <List.Item key={`${cluster.latitude},${cluster.longitude}`}>
                <Button variant="subtle" size="compact-sm" onClick={() => onCluster(cluster)}>
                  {label}
                </Button>
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
      {rows.length > 0 ? (
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
                {shopLink ? <NeedsLink href={shopLink(shop._id)} name={shop.name} /> : null}
              </Group>
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  )
}

/** "Liste des magasins de la carte (n)": what the map shows, as a list, shown on demand. */
export function ShopList(props: {
  /** The shops drawn in view. */
  shops: readonly ListedShop[]
  /** The clusters drawn in view. */
  clusters: readonly MapCluster[]
  ownShopId?: string
  shopLink?: (shopId: string) => string
  /** Zooms the map in on a cluster, or at the largest zoom lists its shops over the map. */
  onCluster: (cluster: MapCluster) => void
  /** False at the largest zoom: a cluster's button lists its shops. */
  zoomable?: boolean
  /** Shown open without its button: the list in the map's place. */
  alwaysOpen?: boolean
}) {
  const [opened, { toggle }] = useDisclosure(false)
  const id = useId()
  // Where clusters are drawn they count every shop (the viewer's own pin among them).
  const count = props.clusters.length > 0 ? props.clusters.reduce((n, c) => n + c.count, 0) : props.shops.length
  const shops = (
    <Shops
      shops={props.shops}
      clusters={props.clusters}
      ownShopId={props.ownShopId}
      shopLink={props.shopLink}
      onCluster={props.onCluster}
      zoomable={props.zoomable ?? true}
    />
  )
  if (props.alwaysOpen) return shops
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="subtle" size="compact-sm" aria-expanded={opened} aria-controls={id} onClick={toggle}>
          {opened ? 'Masquer la liste des magasins' : `Liste des magasins de la carte (${count})`}
        </Button>
      </Group>
      <div id={id} hidden={!opened}>
        {opened ? shops : null}
      </div>
    </Stack>
  )
}
