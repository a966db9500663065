// The filters of the map of shops (issue 39, PRODUCT §2 "Map"): the shops
// with a need of a family of products, and those within a road distance of
// the viewer's own place. The map asks for its area again with them
// (store/shopmap.ts, `GET /api/map?family=&km=`).
import { Button, Group, NativeSelect } from '@mantine/core'
import { useEffect } from 'react'
import { useFamilies } from '../store/hooks'
import { MAP_DISTANCES, NO_FILTER, setMapFilter, useMapFilter } from '../store/shopmap'

/** The French texts of the filters. */
export const MAP_FILTER_TEXTS = {
  family: 'Magasins ayant des besoins en',
  anyFamily: 'Tous produits',
  distance: 'À moins de',
  anyDistance: 'Toutes distances',
  unplaced: 'Indiquez votre adresse dans votre profil pour filtrer par distance.',
  clear: 'Effacer les filtres',
} as const

/** `placed`: the viewer has a place on the map, which the distance counts from. */
export function MapFilters({ placed }: { placed: boolean }) {
  const families = useFamilies()
  const filter = useMapFilter()
  const km = placed ? filter.km : 0
  // A viewer whose profile no longer places it: the distance goes (the
  // server would refuse it).
  useEffect(() => {
    if (!placed && filter.km > 0) setMapFilter({ ...filter, km: 0 })
  }, [placed, filter])
  return (
    <Group align="flex-end" gap="sm" role="group" aria-label="Filtres de la carte">
      <NativeSelect
        label={MAP_FILTER_TEXTS.family}
        value={filter.family}
        onChange={(e) => setMapFilter({ ...filter, family: e.currentTarget.value })}
        data={[
          { value: '', label: MAP_FILTER_TEXTS.anyFamily },
          ...families.map((f) => ({ value: f._id, label: f.name })),
        ]}
      />
      <NativeSelect
        label={MAP_FILTER_TEXTS.distance}
        value={String(km)}
        disabled={!placed}
        description={placed ? undefined : MAP_FILTER_TEXTS.unplaced}
        onChange={(e) => setMapFilter({ ...filter, km: Number(e.currentTarget.value) })}
        data={[
          { value: '0', label: MAP_FILTER_TEXTS.anyDistance },
          ...MAP_DISTANCES.map((d) => ({ value: String(d), label: `${d} km` })),
        ]}
      />
      {filter.family || km > 0 ? (
        <Button variant="subtle" size="xs" onClick={() => setMapFilter(NO_FILTER)}>
          {MAP_FILTER_TEXTS.clear}
        </Button>
      ) : null}
    </Group>
  )
}
