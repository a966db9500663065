import { createTheme } from '@mantine/core'

/** Mantine theme: green for fresh produce, system fonts with French typography in mind. */
export const theme = createTheme({
  primaryColor: 'green',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
})

/** Dates settings: French locale, weeks start on Monday (PRODUCT §1). */
export const datesSettings = { locale: 'fr', firstDayOfWeek: 1 } as const
