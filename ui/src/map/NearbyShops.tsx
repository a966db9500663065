// The answer of the map's search (PRODUCT §2 "Map"): the shops within 30 km
// of the town found, nearest first, with their distance and, for a
// producer, a link to their needs. It asks the server for the area around
// the town with the map's filters (`GET /api/map?family=&km=`,
// store/shopmap.ts: the server keeps the shops they keep, as on the map)
// and keeps those within 30 km.
import { Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core'
import { useEffect } from 'react'
import { formatNumber } from '../format'
import { useFamilies } from '../store/hooks'
import { type MapFilter, loadNearby, useMapFilter, useNearby, useNearbyStatus } from '../store/shopmap'
import type { MapShop } from '../types'
import { type CityMatch, SEARCH_RADIUS_KM, cityLabel, withinRadius } from './cities'
import { NeedsLink } from './NeedsLink'
import type { LonLat } from './geo'
import { de } from '../grammar'
import { MAP_FILTER_TEXTS } from './MapFilters'

/** "12,3 km". */
export function formatKm(km: number): string {
  return `${formatNumber(km, 1)} km`
}

/** "Aucun magasin", "1 magasin", "3 magasins" à moins de 30 km de {town} ("d'Annecy", "du Havre"). */
export function nearbyCount(count: number, place: string): string {
  const shops = count === 0 ? 'Aucun magasin' : count === 1 ? '1 magasin' : `${count} magasins`
  return `${shops} à moins de ${SEARCH_RADIUS_KM} km ${de(place)}`
}

/**
 * The map's filters the list follows, in a sentence: "Filtres de la carte :
 * magasins ayant des besoins en fromages, à moins de 50 km de chez vous.";
 * null without a filter. `familyName` names the family ("Fromages").
 */
export function nearbyFilterText(filter: MapFilter, familyName: string): string | null {
  const parts: string[] = []
  if (filter.family) {
    const name = familyName.charAt(0).toLocaleLowerCase('fr') + familyName.slice(1)
    parts.push(`${MAP_FILTER_TEXTS.family.toLocaleLowerCase('fr')} ${name}`)
  }
  if (filter.km > 0) parts.push(`${MAP_FILTER_TEXTS.distance.toLocaleLowerCase('fr')} ${filter.km} km de chez vous`)
  return parts.length > 0 ? `Filtres de la carte : ${parts.join(', ')}.` : null
}

const position = (shop: MapShop): LonLat => [shop.longitude, shop.latitude]

export function NearbyShops({
  match,
  ownShopId,
  shopLink,
  onClear,
}: {
  match: CityMatch
  ownShopId?: string
  /** For a producer: the address of a shop's needs. Without it the names are plain text. */
  shopLink?: (shopId: string) => string
  onClear: () => void
}) {
  const place = cityLabel(match)
  const center = match.city.lonLat
  const mapFilter = useMapFilter()
  const { family, km } = mapFilter
  const familyName = useFamilies().find((f) => f._id === family)?.name ?? family
  const answer = useNearby(center, SEARCH_RADIUS_KM, mapFilter)
  const status = useNearbyStatus()
  const filtered = nearbyFilterText(mapFilter, familyName)

  useEffect(() => {
    void loadNearby(center, SEARCH_RADIUS_KM, { family, km })
  }, [center, family, km])

  const near = answer ? withinRadius(answer.shops, position, center) : []
  const crowded = !!answer && answer.clusters.length > 0
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="nearby-title">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start">
          <Title order={3} size="h4" id="nearby-title">
            Magasins à moins de {SEARCH_RADIUS_KM} km {de(place)}
          </Title>
          <Button variant="subtle" size="compact-sm" onClick={onClear}>
            Effacer la recherche
          </Button>
        </Group>
        {match.approximate ? (
          <Text size="sm" c="dimmed">
            Aucune commune n'a ce code postal (code CEDEX ?) : la recherche part {de(match.city.name)}, de code postal
            voisin.
          </Text>
        ) : null}
        {filtered ? (
          <Text size="sm" c="dimmed">
            {filtered}
          </Text>
        ) : null}
        <Text size="sm" role="status">
          {!answer
            ? status === 'error'
              ? 'Les magasins proches n’ont pas pu être chargés.'
              : 'Recherche des magasins proches…'
            : crowded
              ? `Plus de 300 magasins autour ${de(place)} : la carte les montre par groupes, zoomez pour les voir.`
              : nearbyCount(near.length, place)}
        </Text>
        {!answer && status === 'error' ? (
          <Group>
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => void loadNearby(center, SEARCH_RADIUS_KM, { family, km })}
            >
              Réessayer
            </Button>
          </Group>
        ) : null}
        {near.length > 0 ? (
          <List listStyleType="none" spacing={6} data-testid="nearby-shops">
            {near.map(({ item: shop, km }) => (
              <List.Item key={shop._id}>
                <Group gap="sm" wrap="nowrap" justify="space-between">
                  <Text fw={600}>
                    {shop.name}
                    {shop._id === ownShopId ? ' (vous)' : ''}
                  </Text>
                  <Group gap="sm" wrap="nowrap">
                    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatKm(km)}
                    </Text>
                    {shopLink ? <NeedsLink href={shopLink(shop._id)} name={shop.name} /> : null}
                  </Group>
                </Group>
              </List.Item>
            ))}
          </List>
        ) : null}
      </Stack>
    </Paper>
  )
}
