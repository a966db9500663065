import { TextInput } from '@mantine/core'
import type { Unit } from '../types'
import { filterCellInput } from './cellInput'
import { isWholeUnit } from '../units'

interface QuantityInputProps {
  label: string
  unit: Unit
  value: string
  /** The text typed, filtered as a grid cell filters it (cellInput). */
  onChange: (text: string) => void
  onBlur?: () => void
  error?: string
}

/** A quantity typed in the product's unit: decimals for kg, whole pieces. */
export function QuantityInput({ label, unit, value, onChange, onBlur, error }: QuantityInputProps) {
  return (
    <TextInput
      label={label}
      inputMode={isWholeUnit(unit) ? 'numeric' : 'decimal'}
      rightSection={unit}
      value={value}
      onChange={(e) => onChange(filterCellInput(e.currentTarget.value, unit))}
      onBlur={onBlur}
      error={error}
    />
  )
}
