import { MultiSelect } from '@mantine/core'

/** Day names, index 0 = Monday (PRODUCT §9). */
export const WEEK_DAYS = ['Lundi', 'Mardi', 'Mercredi', 'Jeudi', 'Vendredi', 'Samedi', 'Dimanche'] as const

const DATA = WEEK_DAYS.map((label, index) => ({ value: String(index), label }))

/** booleans[7] → selected values ("0" … "6"). */
export function daysToValues(days: readonly boolean[] | undefined): string[] {
  return (days ?? []).flatMap((on, index) => (on && index < 7 ? [String(index)] : []))
}

/** Selected values → booleans[7], Monday first. */
export function valuesToDays(values: readonly string[]): boolean[] {
  return WEEK_DAYS.map((_, index) => values.includes(String(index)))
}

/** The producer's default delivery days (PRODUCT §2 "Profile form"). */
export function DeliveryDaysPicker(props: {
  /** The input's id (the dashboard's first steps focus it). */
  id?: string
  value: readonly boolean[] | undefined
  onChange: (days: boolean[]) => void
  onBlur?: () => void
  error?: string
}) {
  const selected = daysToValues(props.value)
  return (
    <MultiSelect
      id={props.id}
      label="Jours de livraison"
      placeholder={selected.length === 0 ? 'Choisir au moins un jour...' : undefined}
      data={DATA}
      value={selected}
      onChange={(values) => props.onChange(valuesToDays(values))}
      onBlur={props.onBlur}
      error={props.error}
      clearable
      clearButtonProps={{ 'aria-label': 'Effacer les jours choisis' }}
      comboboxProps={{ withinPortal: true }}
    />
  )
}
