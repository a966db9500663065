// plotly.js-locales ships CommonJS locale modules without types.
declare module 'plotly.js-locales/fr' {
  const locale: {
    moduleType: 'locale'
    name: string
    dictionary: Record<string, string>
    format: {
      days: string[]
      shortDays: string[]
      months: string[]
      shortMonths: string[]
      date: string
      decimal: string
      thousands: string
    }
  }
  export default locale
}
