// French labels of the payment screens (PRODUCT §16 "Payments").
import { formatDayInWords } from '../format'
import type { DocumentKind, DocumentStatus, PaymentMethod, PaymentStatus } from './types'

export const PAYMENTS_TITLES = { producer: 'À encaisser', distributor: 'À payer' } as const

export const DOCUMENT_STATUS_LABELS: Record<DocumentStatus, string> = {
  issued: 'À payer',
  'partly-paid': 'Payée en partie',
  paid: 'Payée',
  overdue: 'En retard',
  imputed: 'Déduit de la facture',
}

export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  invoice: 'Facture',
  complement: 'Facture complémentaire',
  credit: 'Avoir',
  discount: "Avoir d'escompte",
}

/** Under an invoice whose escompte is open: what the shop may deduct, and until when. */
export const discountOffer = (amount: string, until: string) =>
  `Escompte de ${amount} si payée au plus tard le ${until}`

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  virement: 'Virement',
  cheque: 'Chèque',
  especes: 'Espèces',
  prelevement: 'Prélèvement',
}

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  declared: 'Déclaré par le magasin, à confirmer',
  recorded: 'Enregistré',
  refused: 'Refusé',
  undone: 'Annulé',
}

export const PAYMENT_TOASTS = {
  recordProgress: 'Enregistrement en cours',
  recorded: 'Paiement enregistré',
  recordFailed: "Échec de l'enregistrement",
  declareProgress: 'Déclaration en cours',
  declared: 'Paiement déclaré : le producteur le confirmera à sa réception',
  declareFailed: 'Échec de la déclaration',
  confirmProgress: 'Traitement en cours',
  confirmed: 'Votre réponse a été correctement enregistrée',
  confirmFailed: 'Échec du traitement',
  undoProgress: 'Annulation en cours',
  undone: 'Paiement annulé',
  undoFailed: "Échec de l'annulation",
  loadFailed: 'Impossible de charger les paiements',
  remindersProgress: 'Modification en cours',
  remindersOn: 'Relances activées',
  remindersOff: 'Relances désactivées',
  remindersFailed: 'Échec de la modification',
  transferProgress: 'Préparation du virement',
  transferReady: 'Fichier de virement prêt : importez-le dans votre banque',
  transferFailed: 'Virement impossible',
} as const

/** Told to a shop about a producer whose IBAN changed within 30 days (PRODUCT §16 "Payments", §13). */
export function ibanChangedNotice(day: string): string {
  return `IBAN modifié le ${formatDayInWords(day)} : vérifiez-le auprès du producteur avant de payer.`
}

/** Below an account's documents: the settled ones older than those listed, loaded on demand (issue 42). */
export const olderDocumentsLabel = (n: number) =>
  n > 1 ? `Afficher les documents réglés plus anciens (${n})` : 'Afficher le document réglé plus ancien (1)'

/** Below an account's payments: those older than the ones listed, loaded on demand. */
export const olderPaymentsLabel = (n: number) =>
  n > 1 ? `Afficher les paiements plus anciens (${n})` : 'Afficher le paiement plus ancien (1)'

/** An account's older rows could not be read: the title above the daemon's message. */
export const OLDER_FAILED = "L'historique de ce compte n'a pas pu être chargé."
