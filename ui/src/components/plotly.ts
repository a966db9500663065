// plotly.js (the basic bundle: scatter, bar, pie) with its French locale
// (plotly.js-locales: month and day names, decimal comma, thousands
// separated by a space). Plot imports this module dynamically, so both
// come in one chunk of their own, fetched only when a chart is about to
// show; nothing else imports it.
import Plotly from 'plotly.js-basic-dist-min'
import fr from 'plotly.js-locales/fr'

Plotly.register(fr)

/** The locale every chart is drawn in. */
export const LOCALE = 'fr'

export default Plotly
