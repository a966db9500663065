// The standard import's turnover line (PRODUCT §2 "Add bar and imports",
// §14 "Standard import"), pure. The turnover is annual: each month's needs
// take a twelfth of it, spread by the products' seasonal coefficients (mean
// 1 over the year) — so the line says the annual figure and the monthly
// average, never the annual figure "over n months".
import { formatEUR } from '../format'

/** The line under the turnover fields; `turnover` is the corrected annual one. */
export function retainedTurnoverText(turnover: number, months: number): string {
  if (!Number.isFinite(turnover) || turnover <= 0)
    return 'Renseignez votre chiffre d’affaires pour simuler vos besoins.'
  const annual = `CA fruits et légumes annuel retenu : ${formatEUR(turnover)}, soit ${formatEUR(
    Math.round((turnover / 12) * 100) / 100,
  )} par mois en moyenne`
  if (months <= 0) return `${annual}.`
  const spread = months === 1 ? 'le mois importé' : `les ${months} mois importés`
  return `${annual}, réparti selon la saison sur ${spread}.`
}
