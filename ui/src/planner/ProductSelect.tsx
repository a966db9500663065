import { type ComboboxItem, type OptionsFilter, Select } from '@mantine/core'
import { useMemo } from 'react'
import { searchByName } from '../search'
import { useFamilies, useProducts } from '../store/hooks'
import { productOptions } from './productOptions'

interface ProductSelectProps {
  /** The chosen product's id, '' for none. */
  value: string
  onChange: (id: string) => void
  error?: string
}

/** Keeps the options whose label matches the search (search.ts: "oeufs" finds "Œufs de poule"), in their groups. */
const filter: OptionsFilter = ({ options, search }) =>
  options
    .map((o) => ('group' in o ? { ...o, items: searchByName(o.items as ComboboxItem[], (i) => i.label, search) } : o))
    .filter((o) => !('group' in o) || o.items.length > 0)

/** The catalogue's product types in use, grouped by family and searchable by name (the add bar's forms). */
export function ProductSelect({ value, onChange, error }: ProductSelectProps) {
  const products = useProducts()
  const families = useFamilies()
  const options = useMemo(() => productOptions(products, families, value), [products, families, value])
  return (
    <Select
      label="Produit"
      placeholder="Rechercher un produit"
      searchable
      data={options}
      filter={filter}
      limit={200}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      nothingFoundMessage="Aucun produit"
      error={error}
    />
  )
}
