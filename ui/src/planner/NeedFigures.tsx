import { DataList } from '@mantine/core'
import { formatQuantity } from '../format'
import type { NeedRO, ProductRO } from './model'

/** A need's quantities (PRODUCT §3): asked, committed, proposed and still available. */
export function NeedFigures({ need, product }: { need: NeedRO; product: ProductRO }) {
  const figures = [
    ['Besoin', need.quantity],
    ['Engagé', need.quantityAccepted],
    ['Proposé', need.quantityProposed],
    ['Disponible', need.quantityAvailable],
  ] as const
  return (
    <DataList aria-label="Quantités du besoin" labelWidth={110} withDivider>
      {figures.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{formatQuantity(value, product.unit)}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  )
}
