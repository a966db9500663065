import { NativeSelect } from '@mantine/core'
import { type ReactNode, useEffect, useMemo, useState } from 'react'
import { api } from '../api'
import { useFamilies } from '../store/hooks'
import { LABELS } from '../store/supplied'
import type { RowFilter } from './rows'

/** The French texts of the planner's filters. */
export const FILTER_TEXTS = {
  family: 'Famille',
  anyFamily: 'Toutes',
  label: 'Label des producteurs',
  anyLabel: 'Tous',
  distance: 'Producteurs à moins de',
  anyDistance: 'Toute distance',
} as const

const DISTANCES = [20, 50, 100, 200]

/**
 * The planner's filters (PRODUCT §2 "Needs planner", "Filters"): its rows
 * by family, for every viewer; for a shop, also the types producers sell
 * with a label within a road distance, which the daemon answers (`GET
 * /api/supplied-products/types`, the rule of core/supplied Types). Until
 * that answer comes, or when it fails, the rows are not narrowed by it.
 */
export function usePlannerFilter(shop: boolean): { filter: RowFilter; controls: ReactNode } {
  const families = useFamilies()
  const [family, setFamily] = useState('')
  const [label, setLabel] = useState('')
  const [km, setKm] = useState('0')
  const [types, setTypes] = useState<ReadonlySet<string> | null>(null)
  const bySupply = shop && (label !== '' || km !== '0')
  useEffect(() => {
    if (!bySupply) {
      setTypes(null)
      return
    }
    const abort = new AbortController()
    const query = new URLSearchParams({ label, km })
    api
      .get<{ types: string[] }>(`/api/supplied-products/types?${query}`, abort.signal)
      .then((answer) => setTypes(new Set(Array.isArray(answer?.types) ? answer.types : [])))
      .catch(() => {
        // The filter is left off: the rows stay as they are.
      })
    return () => abort.abort()
  }, [bySupply, label, km])
  const filter = useMemo(() => ({ family, types: bySupply ? types : null }), [family, types, bySupply])
  const controls = (
    <>
      <NativeSelect
        label={FILTER_TEXTS.family}
        value={family}
        onChange={(e) => setFamily(e.currentTarget.value)}
        data={[{ value: '', label: FILTER_TEXTS.anyFamily }, ...families.map((f) => ({ value: f._id, label: f.name }))]}
        w={170}
      />
      {shop ? (
        <>
          <NativeSelect
            label={FILTER_TEXTS.label}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            data={[{ value: '', label: FILTER_TEXTS.anyLabel }, ...LABELS.map((l) => ({ value: l.id, label: l.name }))]}
            w={200}
          />
          <NativeSelect
            label={FILTER_TEXTS.distance}
            value={km}
            onChange={(e) => setKm(e.currentTarget.value)}
            data={[
              { value: '0', label: FILTER_TEXTS.anyDistance },
              ...DISTANCES.map((d) => ({ value: String(d), label: `${d} km` })),
            ]}
            w={150}
          />
        </>
      ) : null}
    </>
  )
  return { filter, controls }
}
