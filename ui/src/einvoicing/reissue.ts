// The producer re-issues, corrected, an invoice its approved platform
// rejected, or cancels by a credit note one the shop refused (PRODUCT §16
// "Rejected (213) and refused (210)"): the daemon issues the corrected
// invoice under a new number and the internal credit note cancelling the
// rejected one, or the internal credit note cancelling the refused one;
// the payments screen is read afresh.
import { api, errorMessage } from '../api'
import { progress } from '../notify'
import { loadPayments } from '../store/payments'

export const REISSUE_TEXTS = {
  button: 'Émettre la facture corrigée',
  progress: 'Émission de la facture corrigée…',
  failure: "La facture corrigée n'a pas été émise",
  success: (number: string) => `Facture corrigée ${number} émise : elle sera déposée sur votre plateforme agréée.`,
}

interface Reissued {
  invoice: { id: string; number: string }
  credit: { id: string; number: string }
}

export async function reissueInvoice(id: string): Promise<boolean> {
  const toast = progress(REISSUE_TEXTS.progress)
  try {
    const out = await api.post<Reissued>(`/api/user/pa/invoices/${encodeURIComponent(id)}/reissue`)
    toast.success(REISSUE_TEXTS.success(out.invoice.number))
    await loadPayments()
    return true
  } catch (err) {
    toast.failure(REISSUE_TEXTS.failure, errorMessage(err))
    return false
  }
}

export const CANCEL_TEXTS = {
  button: 'Annuler la facture par un avoir',
  progress: "Émission de l'avoir…",
  failure: "L'avoir n'a pas été émis",
  success: (number: string) => `Avoir interne ${number} émis : la facture refusée est annulée dans vos comptes.`,
}

export async function cancelRefused(id: string): Promise<boolean> {
  const toast = progress(CANCEL_TEXTS.progress)
  try {
    const out = await api.post<{ credit: { id: string; number: string } }>(
      `/api/user/pa/invoices/${encodeURIComponent(id)}/cancel`,
    )
    toast.success(CANCEL_TEXTS.success(out.credit.number))
    await loadPayments()
    return true
  } catch (err) {
    toast.failure(CANCEL_TEXTS.failure, errorMessage(err))
    return false
  }
}
