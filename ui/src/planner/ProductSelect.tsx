import { Select } from '@mantine/core'
import { useMemo } from 'react'
import { useProducts } from '../store/hooks'

interface ProductSelectProps {
  /** The chosen product's id, '' for none. */
  value: string
  onChange: (id: string) => void
  error?: string
}

/** The catalogue's products, searchable by name (the add bar's forms). */
export function ProductSelect({ value, onChange, error }: ProductSelectProps) {
  const products = useProducts()
  const options = useMemo(() => products.map((p) => ({ value: p._id, label: p.name })), [products])
  return (
    <Select
      label="Produit"
      placeholder="Rechercher un produit"
      searchable
      data={options}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      nothingFoundMessage="Aucun produit"
      error={error}
    />
  )
}
