import { describe, expect, it } from 'vitest'
import type { Delivery, Order } from '../types'
import {
  type DeliveryRow,
  type ClaimWindow,
  FILTERS,
  acceptedBySilence,
  canClaim,
  canEdit,
  canReceive,
  canReview,
  claimAnswerNotice,
  claimDeadline,
  claimLabel,
  claimWindowNotice,
  creditLabel,
  dateBounds,
  dateBoundsHint,
  deliveryRows,
  filterRows,
  isLocked,
  isWorkingDay,
  lockNotice,
  lockMinutes,
  noteNumber,
  paginate,
  sortRows,
} from './model'

function delivery(
  id: string,
  date: string,
  status: Delivery['status'],
  chrono: number,
  extra: Partial<Delivery> = {},
): Delivery {
  return {
    _id: id,
    orderId: 'o',
    status,
    date,
    chrono,
    claimStatus: 'void',
    claimBy: 'producer',
    deliveryLines: [],
    ...extra,
  }
}

function row(d: Delivery, partner = 'Ferme', order: Partial<Order> = {}): DeliveryRow {
  return { delivery: d, partner, order: { _id: 'o', date: '2026-11-01', deliveries: [d], ...order } }
}

const today = '2026-11-20'
const ids = (rows: DeliveryRow[]) => rows.map((r) => r.delivery._id)

describe('deliveryRows', () => {
  it('names the other party of each order', () => {
    const orders: Order[] = [
      {
        _id: 'o1',
        date: '2026-11-01',
        distributor: 's1',
        producer: undefined,
        deliveries: [delivery('a', today, 'planned', 1)],
      },
      {
        _id: 'o2',
        date: '2026-11-01',
        distributor: 's2',
        deliveries: [delivery('b', today, 'done', 2), delivery('c', today, 'done', 3)],
      },
    ]
    const rows = deliveryRows(orders, 'producer', new Map([['s1', 'Épicerie du Lac']]))
    expect(rows.map((r) => [r.delivery._id, r.partner])).toEqual([
      ['a', 'Épicerie du Lac'],
      ['b', 's2'],
      ['c', 's2'],
    ])
    const shopView = deliveryRows(
      [{ _id: 'o3', date: '2026-11-01', producer: 'p1', deliveries: [delivery('d', today, 'done', 1)] }],
      'distributor',
      new Map([['p1', 'Ferme']]),
    )
    expect(shopView[0].partner).toBe('Ferme')
  })
})

describe('filters', () => {
  const rows = [
    row(delivery('past-done', '2026-11-01', 'done', 1)),
    row(delivery('recent-done', '2026-11-10', 'done', 2)),
    row(delivery('today-done', '2026-11-20', 'done', 3)),
    row(delivery('today-planned', '2026-11-20', 'planned', 4)),
    row(delivery('soon', '2026-12-04', 'planned', 5)),
    row(delivery('later', '2026-12-05', 'planned', 6)),
    row(delivery('cancelled-future', '2026-11-25', 'cancelled', 7)),
    row(delivery('cancelled-past', '2026-11-19', 'cancelled', 8)),
    row(delivery('cancelled-old', '2026-11-05', 'cancelled', 9)),
  ]
  it.each([
    ['upcoming14', ['today-planned', 'soon', 'cancelled-future']],
    ['upcoming', ['today-planned', 'soon', 'later', 'cancelled-future']],
    ['done14', ['recent-done', 'today-done', 'cancelled-past']],
    ['done', ['past-done', 'recent-done', 'today-done', 'cancelled-past', 'cancelled-old']],
  ] as const)('%s', (filter, expected) => {
    expect(ids(filterRows(rows, filter, today))).toEqual(expected)
  })
  it('offers the four tabs in PRODUCT order', () => {
    expect(FILTERS.map((f) => f.key)).toEqual(['upcoming14', 'upcoming', 'done14', 'done'])
  })
})

describe('sortRows', () => {
  const rows = [
    row(delivery('a', '2026-11-22', 'cancelled', 3), 'Épicerie'),
    row(delivery('b', '2026-11-21', 'done', 10), 'abeille'),
    row(delivery('c', '2026-11-23', 'planned', 2), 'Zèbre'),
    row(delivery('d', '2026-11-20', 'planned', 1), 'Bio'),
  ]
  it('sorts statuses planned, done, cancelled', () => {
    expect(ids(sortRows(rows, 'status', 'asc'))).toEqual(['d', 'c', 'b', 'a'])
    expect(ids(sortRows(rows, 'status', 'desc'))).toEqual(['a', 'b', 'c', 'd'])
  })
  it('sorts chronos as numbers', () => {
    expect(ids(sortRows(rows, 'chrono', 'asc'))).toEqual(['d', 'c', 'a', 'b'])
  })
  it('sorts partners the French way, ignoring case and accents', () => {
    expect(ids(sortRows(rows, 'partner', 'asc'))).toEqual(['b', 'd', 'a', 'c'])
  })
  it('sorts dates both ways', () => {
    expect(ids(sortRows(rows, 'date', 'asc'))).toEqual(['d', 'b', 'a', 'c'])
    expect(ids(sortRows(rows, 'date', 'desc'))).toEqual(['c', 'a', 'b', 'd'])
  })
  it('does not change its input', () => {
    const copy = [...rows]
    sortRows(rows, 'date', 'desc')
    expect(rows).toEqual(copy)
  })
})

describe('paginate', () => {
  const items = Array.from({ length: 12 }, (_, i) => i + 1)
  it.each([
    [1, 5, [1, 2, 3, 4, 5], 3],
    [3, 5, [11, 12], 3],
    [9, 5, [11, 12], 3],
    [0, 5, [1, 2, 3, 4, 5], 3],
    [1, 20, items, 1],
  ])('page %i of %i', (page, size, expected, pages) => {
    const p = paginate(items, page, size)
    expect(p.rows).toEqual(expected)
    expect(p.pages).toBe(pages)
  })
  it('has one empty page without rows', () => {
    expect(paginate([], 1, 5)).toEqual({ rows: [], pages: 1, page: 1 })
  })
})

describe('what each side may do', () => {
  const paris = (day: string, time: string) => new Date(`${day}T${time}:00+01:00`)
  it('locks the note at 12:00 on the delivery date, Paris time', () => {
    expect(isLocked('2026-11-20', paris('2026-11-20', '11:59'))).toBe(false)
    expect(isLocked('2026-11-20', paris('2026-11-20', '12:00'))).toBe(true)
    expect(isLocked('2026-11-19', paris('2026-11-20', '08:00'))).toBe(true)
    expect(isLocked('2026-11-21', paris('2026-11-20', '23:59'))).toBe(false)
  })
  it('follows the configured lock time', () => {
    expect(lockMinutes('07:30')).toBe(450)
    expect(lockMinutes('7h')).toBe(720)
    expect(lockMinutes('25:00')).toBe(720)
    expect(isLocked('2026-11-20', paris('2026-11-20', '07:29'), 450)).toBe(false)
    expect(isLocked('2026-11-20', paris('2026-11-20', '07:30'), 450)).toBe(true)
    expect(canEdit(delivery('a', '2026-11-20', 'planned', 1), 'distributor', paris('2026-11-20', '08:00'), 450)).toBe(
      false,
    )
  })
  it('lets the shop edit planned deliveries before the lock', () => {
    const now = paris('2026-11-20', '10:00')
    expect(canEdit(delivery('a', '2026-11-21', 'planned', 1), 'distributor', now)).toBe(true)
    expect(canEdit(delivery('a', '2026-11-21', 'planned', 1), 'producer', now)).toBe(false)
    expect(canEdit(delivery('a', '2026-11-21', 'done', 1), 'distributor', now)).toBe(false)
    expect(canEdit(delivery('a', '2026-11-20', 'planned', 1), 'distributor', paris('2026-11-20', '12:00'))).toBe(false)
  })
  it('lets the producer claim until the end of the second working day after the delivery, invoiced or not', () => {
    const now = paris('2026-11-20', '10:00') // a Friday
    const done = row(delivery('a', '2026-11-18', 'done', 1)) // Wednesday: Thursday and Friday
    expect(canClaim(done, 'producer', now)).toBe(true)
    expect(canClaim(done, 'producer', paris('2026-11-20', '23:59'))).toBe(true)
    expect(canClaim(done, 'producer', paris('2026-11-21', '00:00'))).toBe(false)
    expect(canClaim(done, 'distributor', now)).toBe(false)
    expect(canClaim(row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent' })), 'producer', now)).toBe(true)
    expect(canClaim(row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'accepted' })), 'producer', now)).toBe(
      false,
    )
    expect(canClaim(row(delivery('a', '2026-11-18', 'planned', 1)), 'producer', now)).toBe(false)
    // Invoiced meanwhile: still claimable within its window.
    const invoiced = row(delivery('a', '2026-11-18', 'done', 1), 'F', {
      invoice: { _id: 'i', number: 'FA-2026-000001', issuedAt: '' },
    })
    expect(canClaim(invoiced, 'producer', now)).toBe(true)
  })
  it('lets the shop answer a pending claim', () => {
    expect(canReview(row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent' })), 'distributor')).toBe(true)
    expect(canReview(row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent' })), 'producer')).toBe(false)
    // Invoiced meanwhile: the answer is settled by a credit note.
    const invoiced = row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent' }))
    invoiced.order = {
      ...invoiced.order,
      invoice: { _id: 'i', number: 'FA-2026-000001', issuedAt: '2026-12-01T05:00:00Z' },
    }
    expect(canReview(invoiced, 'distributor')).toBe(true)
    expect(canReview(row(delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'rejected' })), 'distributor')).toBe(
      false,
    )
  })
  it('bounds the date from tomorrow to the end of the month', () => {
    expect(dateBounds(row(delivery('a', '2026-11-24', 'planned', 1)), paris('2026-11-20', '10:00'))).toEqual({
      min: '2026-11-21',
      max: '2026-11-30',
    })
    expect(dateBounds(row(delivery('a', '2026-12-02', 'planned', 1)), paris('2026-11-30', '10:00'))).toEqual({
      min: '2026-12-01',
      max: '2026-12-31',
    })
  })
  it('says the real lock of the note, from the setting', () => {
    const now = paris('2026-11-24', '10:00')
    expect(lockNotice(delivery('a', '2026-11-24', 'planned', 1), now, 12 * 60, '12h')).toBe(
      "Bon de livraison modifiable jusqu'à 12h le jour de la livraison, puis envoyé par email aux deux parties.",
    )
    expect(lockNotice(delivery('a', '2026-11-24', 'planned', 1), now, 7 * 60 + 30, '7h30')).toBe(
      'Bon de livraison verrouillé à 7h30 le jour de la livraison.',
    )
    expect(lockNotice(delivery('a', '2026-11-20', 'done', 1), now, 12 * 60, '12h')).toBe(
      'Bon de livraison verrouillé à 12h le jour de la livraison.',
    )
    expect(lockNotice(delivery('a', '2026-11-25', 'cancelled', 1), now, 12 * 60, '12h')).toBe('')
  })
  it('says why the date stops at the end of the month', () => {
    expect(dateBoundsHint({ min: '2026-11-21', max: '2026-11-30' })).toBe(
      'Au plus tôt demain, au plus tard le lundi 30 novembre 2026 : une livraison reste dans le mois de sa commande, facturée une fois le mois terminé.',
    )
    expect(dateBoundsHint({ min: '2026-12-01', max: '2026-11-30' })).toBe(
      'Plus aucune autre date possible : une livraison reste dans le mois de sa commande, facturée une fois le mois terminé.',
    )
  })
  it('words claims as sent for the producer and received for the shop', () => {
    expect(claimLabel('sent', 'producer')).toBe("Demande d'avoir envoyée, en attente de réponse")
    expect(claimLabel('accepted', 'distributor')).toBe("Demande d'avoir reçue, acceptée")
    expect(claimLabel('rejected', 'producer')).toBe("Demande d'avoir envoyée, refusée")
    expect(claimLabel('void', 'producer')).toBe('')
  })
  it('numbers notes as the PDF does', () => {
    expect(noteNumber(12)).toBe('BL-000012')
  })
})

describe('claim window and silence', () => {
  const paris = (day: string, time: string) => new Date(`${day}T${time}:00+01:00`)
  // The weekday holidays GET /api/deliveries/settings gives for 2026–2027.
  const window: ClaimWindow = {
    workingDays: 2,
    holidays: [
      '2026-01-01',
      '2026-04-06',
      '2026-05-01',
      '2026-05-08',
      '2026-05-14',
      '2026-05-25',
      '2026-07-14',
      '2026-11-11',
      '2026-12-25',
      '2027-01-01',
      '2027-03-29',
      '2027-05-06',
      '2027-05-17',
      '2027-07-14',
      '2027-11-01',
      '2027-11-11',
    ],
  }
  it('counts two working days after the delivery, as core/delivery ClaimDeadline does', () => {
    // The same table as core/delivery's TestClaimDeadline.
    const cases: [string, string][] = [
      ['2026-11-16', '2026-11-18'],
      ['2026-11-17', '2026-11-19'],
      ['2026-11-18', '2026-11-20'],
      ['2026-11-19', '2026-11-23'],
      ['2026-11-20', '2026-11-24'],
      ['2026-11-21', '2026-11-24'],
      ['2026-11-22', '2026-11-24'],
      ['2026-11-10', '2026-11-13'],
      ['2026-11-27', '2026-12-01'],
      ['2026-12-24', '2026-12-29'],
      ['2026-12-31', '2027-01-05'],
      ['2027-05-05', '2027-05-10'],
      ['2027-05-14', '2027-05-19'],
    ]
    for (const [date, deadline] of cases) expect([date, claimDeadline(date, window)]).toEqual([date, deadline])
    expect(isWorkingDay('2026-11-11', window.holidays)).toBe(false)
    expect(isWorkingDay('2026-11-21', window.holidays)).toBe(false)
    expect(isWorkingDay('2026-11-20', window.holidays)).toBe(true)
  })
  it('tells the producer until when it may claim, then that the window is over', () => {
    const d = row(delivery('a', '2026-11-10', 'done', 1))
    expect(claimWindowNotice(d, 'producer', paris('2026-11-12', '09:00'), window)).toBe(
      "Demande d'avoir possible jusqu'au vendredi 13 novembre 2026 inclus (deux jours ouvrés après la livraison).",
    )
    expect(claimWindowNotice(d, 'producer', paris('2026-11-14', '09:00'), window)).toBe(
      "Délai de demande d'avoir dépassé : elle était possible jusqu'au vendredi 13 novembre 2026.",
    )
    expect(claimWindowNotice(d, 'distributor', paris('2026-11-12', '09:00'), window)).toBe('')
    expect(
      claimWindowNotice(
        row(delivery('a', '2026-11-10', 'done', 1, { claimStatus: 'accepted' })),
        'producer',
        paris('2026-11-12', '09:00'),
        window,
      ),
    ).toBe('')
  })
  it('lets silence accept only a claim that lowers the amount, as core/delivery AcceptedBySilence', () => {
    const cases: [number[], boolean][] = [
      [[-3], true],
      [[-3, 0, -0.01], true],
      [[2], false],
      [[-10, 0.01], false],
      [[-0.01, 10], false],
      [[0, 0], false],
      [[], false],
    ]
    for (const [claimed, want] of cases) expect([claimed, acceptedBySilence(claimed)]).toEqual([claimed, want])
  })
  it('tells the shop it must answer a claim that raises the amount, and the producer that it waits', () => {
    const line = (id: string, quantityClaimed: number) => ({
      _id: id,
      product: 'tomate',
      price: 2.5,
      quantityExpected: 12,
      quantitySent: 10,
      quantityClaimed,
    })
    const raising = delivery('a', '2026-11-18', 'done', 1, {
      claimStatus: 'sent',
      deliveryLines: [line('t', 2), line('l', -1)],
    })
    const lowering = delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent', deliveryLines: [line('t', -2)] })
    expect(claimAnswerNotice(raising, 'distributor', 48)).toBe(
      "Cette demande augmente le montant facturé : elle n'est acceptée que par votre réponse. Merci d'y répondre.",
    )
    expect(claimAnswerNotice(raising, 'producer', 48)).toBe(
      "Cette demande augmente le montant facturé : elle attend la réponse du magasin et n'est jamais acceptée sans elle.",
    )
    expect(claimAnswerNotice(lowering, 'distributor', 48)).toBe(
      'Sans réponse de votre part 48 h après son envoi, la demande sera acceptée automatiquement.',
    )
    expect(claimAnswerNotice(lowering, 'producer', 24)).toBe(
      'Sans réponse du magasin 24 h après son envoi, la demande sera acceptée automatiquement.',
    )
    expect(claimAnswerNotice({ ...lowering, claimStatus: 'accepted' }, 'distributor', 48)).toBe('')
  })
  it('makes the shop\'s claim, made by its reception, the producer\'s to answer (PRODUCT §16 "Reception")', () => {
    const now = paris('2026-11-19', '10:00')
    const short = {
      _id: 't',
      product: 'tomate',
      price: 2.5,
      quantityExpected: 10,
      quantitySent: 10,
      quantityClaimed: -2.5,
      quantityReceived: 7.5,
      receptionReason: 'quantity' as const,
    }
    const d = delivery('a', '2026-11-18', 'done', 1, { claimStatus: 'sent', claimBy: 'shop', deliveryLines: [short] })
    expect(canReview(row(d), 'producer')).toBe(true)
    expect(canReview(row(d), 'distributor')).toBe(false)
    expect(canClaim(row(d), 'producer', now)).toBe(false)
    expect(claimWindowNotice(row(d), 'producer', now)).toBe('')
    expect(claimLabel('sent', 'producer', 'shop')).toBe("Demande d'avoir reçue à la réception, en attente de réponse")
    expect(claimLabel('accepted', 'distributor', 'shop')).toBe("Demande d'avoir envoyée à la réception, acceptée")
    // Silence accepts the shop's only when it raises the amount.
    expect(acceptedBySilence([-2.5], 'shop')).toBe(false)
    expect(acceptedBySilence([2, 0], 'shop')).toBe(true)
    expect(acceptedBySilence([2, -1], 'shop')).toBe(false)
    expect(claimAnswerNotice(d, 'producer', 48)).toBe(
      "Le magasin a signalé ces écarts à la réception : la demande n'est acceptée que par votre réponse. Merci d'y répondre.",
    )
    expect(claimAnswerNotice(d, 'distributor', 48)).toBe(
      "Cette demande attend la réponse du producteur : elle n'est jamais acceptée sans elle.",
    )
  })
  it('lets the shop receive a delivery once, from when it is planned to the end of its claim window', () => {
    const now = paris('2026-11-20', '14:00') // a Friday, past the lock
    expect(canReceive(delivery('a', '2026-11-20', 'planned', 1), 'distributor', now)).toBe(true)
    expect(canReceive(delivery('a', '2026-11-20', 'done', 1), 'distributor', now)).toBe(true)
    expect(canReceive(delivery('a', '2026-11-18', 'done', 1), 'distributor', now)).toBe(true)
    expect(canReceive(delivery('a', '2026-11-17', 'done', 1), 'distributor', now)).toBe(false)
    expect(canReceive(delivery('a', '2026-11-20', 'cancelled', 1), 'distributor', now)).toBe(false)
    expect(
      canReceive(delivery('a', '2026-11-20', 'done', 1, { receivedAt: '2026-11-20T08:00:00Z' }), 'distributor', now),
    ).toBe(false)
    expect(canReceive(delivery('a', '2026-11-20', 'planned', 1), 'producer', now)).toBe(false)
  })
})

describe('creditLabel', () => {
  it('names each kind of document settling an invoice', () => {
    const ref = { _id: 'c', number: 'AV-2026-000002', deliveryId: '', issuedAt: '2026-12-04T09:00:00Z' }
    expect(creditLabel({ ...ref, kind: 'credit' })).toBe("Télécharger l'avoir AV-2026-000002")
    expect(creditLabel({ ...ref, kind: 'discount' })).toBe("Télécharger l'avoir d'escompte AV-2026-000002")
    expect(creditLabel({ ...ref, kind: 'complement', number: 'FA-2026-000003' })).toBe(
      'Télécharger la facture complémentaire FA-2026-000003',
    )
  })
})
