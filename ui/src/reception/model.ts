// The pure rules of the reception screen (PRODUCT §16 "Reception"): what the
// shop typed per line becomes the body the daemon reads, with the same
// messages as the daemon's refusals (core/delivery reception.go).
import { formatDay, formatTime } from '../format'
import type { ReceptionBody } from './queue'

export const RECEPTION_MESSAGES = {
  receivedBy: 'Saisissez le nom de la personne qui réceptionne',
  reason: 'Indiquez pourquoi la quantité reçue diffère : quantité manquante ou qualité refusée',
  quantity: 'Veuillez saisir une quantité positive',
  pieces: 'Veuillez saisir un nombre de pièces correct',
} as const

export const REASON_LABELS = { quantity: 'Quantité manquante', quality: 'Qualité refusée' } as const

export type Reason = keyof typeof REASON_LABELS

/** One line as the shop types it. */
export interface LineInput {
  _id: string
  /** The note's quantity (sent, else expected). */
  expected: number
  unit: string
  /** Ticked: received as the note says. */
  ok: boolean
  /** The quantity received, as typed ("7,5"), when not ticked. */
  received: string
  reason: Reason | ''
  comment: string
  /** The photo, base64 JPEG. */
  photo?: string
}

/** "7,5" → 7.5; NaN for anything else. */
export function parseQuantity(text: string): number {
  const t = text.trim().replace(',', '.')
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return Number.NaN
  return Number(t)
}

/** The body of a reception, or the messages of its fields ("receivedBy", "lines.0.received"…). */
export function receptionBody(
  key: string,
  receivedBy: string,
  lines: readonly LineInput[],
  signature: string | null,
  at: Date,
): { body: ReceptionBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  if (!receivedBy.trim()) errors.receivedBy = RECEPTION_MESSAGES.receivedBy
  const out: ReceptionBody['deliveryLines'] = []
  lines.forEach((l, i) => {
    if (l.ok) {
      out.push({ _id: l._id, quantityReceived: l.expected })
      return
    }
    const q = parseQuantity(l.received)
    if (Number.isNaN(q)) {
      errors[`lines.${i}.received`] = RECEPTION_MESSAGES.quantity
      return
    }
    if (l.unit === 'un' && !Number.isInteger(q)) {
      errors[`lines.${i}.received`] = RECEPTION_MESSAGES.pieces
      return
    }
    if (q !== l.expected && !l.reason) {
      errors[`lines.${i}.reason`] = RECEPTION_MESSAGES.reason
      return
    }
    out.push({
      _id: l._id,
      quantityReceived: q,
      ...(q !== l.expected && l.reason ? { receptionReason: l.reason } : {}),
      ...(l.comment.trim() ? { receptionComment: l.comment.trim() } : {}),
      ...(l.photo ? { photo: l.photo } : {}),
    })
  })
  if (Object.keys(errors).length > 0) return { errors }
  return {
    body: {
      key,
      receivedBy: receivedBy.trim(),
      receivedAt: at.toISOString(),
      ...(signature ? { signature: signature.replace(/^data:[^,]*,/, '') } : {}),
      deliveryLines: out,
    },
  }
}

/** "Reçu le 20/11/2026 à 08h55 par Léa Martin", as the delivery note says it. */
export function receivedText(receivedAt: string, receivedBy: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(receivedAt))
  return `Reçu le ${formatDay(day)} à ${formatTime(receivedAt).replace(':', 'h')} par ${receivedBy}`
}
