import { describe, expect, it } from 'vitest'
import contractions from '../../core/grammar/testdata/contractions.json'
import {
  EVENT_TYPES,
  UnknownEventTypeError,
  avoir,
  de,
  deltaText,
  describeEvent,
  emitterLabel,
  formatDayInWords,
  groupEventsByDay,
  quantityText,
  to,
} from './feed'
import type { ActivityEvent, EventData, EventType } from './types'

const event = (createdAt: string, name = 'Ferme des Saules'): ActivityEvent => ({
  _id: 'e1',
  createdAt,
  type: 'need:create',
  data: {},
  origin: { email: `${name.replace(/ /g, '').toLowerCase()}@exemple.fr`, name },
  target: { name: 'Épicerie' },
})

describe('groupEventsByDay', () => {
  it('returns nothing for no events', () => {
    expect(groupEventsByDay([])).toEqual([])
  })

  it('groups by Paris day, newest day and newest event first', () => {
    const events = [
      event('2026-12-23T09:00:00Z', 'A'),
      event('2026-12-24T08:00:00Z', 'B'),
      event('2026-12-24T23:30:00Z', 'C'), // 00:30 on the 25th in Paris
      event('2026-12-24T16:45:00Z', 'D'),
      event('not a date', 'E'),
    ]
    const days = groupEventsByDay(events)
    expect(days.map((d) => d.day)).toEqual(['2026-12-25', '2026-12-24', '2026-12-23'])
    expect(days.map((d) => d.label)).toEqual([
      'vendredi 25 décembre 2026',
      'jeudi 24 décembre 2026',
      'mercredi 23 décembre 2026',
    ])
    expect(days[0].events.map((e) => [e.event.origin.name, e.time])).toEqual([['C', '00:30']])
    expect(days[1].events.map((e) => [e.event.origin.name, e.time])).toEqual([
      ['D', '17:45'],
      ['B', '09:00'],
    ])
    expect(days[2].events.map((e) => e.time)).toEqual(['10:00'])
  })

  it('does not mutate its input', () => {
    const events = [event('2026-12-23T09:00:00Z'), event('2026-12-24T09:00:00Z')]
    const copy = [...events]
    groupEventsByDay(events)
    expect(events).toEqual(copy)
  })
})

describe('emitterLabel', () => {
  const e = event('2026-12-24T08:00:00Z', 'Ferme des Saules')
  it.each([
    ['fermedessaules@exemple.fr', 'vous'],
    ['FermeDesSaules@Exemple.fr', 'vous'],
    ['autre@exemple.fr', 'Ferme des Saules'],
    [null, 'Ferme des Saules'],
  ])('viewer %s → %s', (viewer, expected) => {
    expect(emitterLabel(e, viewer)).toBe(expected)
  })
  it('names the member of the emitter’s team who did it (PRODUCT §13 "Teams")', () => {
    const byMarie = {
      ...e,
      type: 'proposal:review' as const,
      data: { outcome: true },
      origin: { name: 'Épicerie du Lac' },
      person: 'Marie',
    }
    expect(emitterLabel(byMarie, 'f@x.fr')).toBe('Marie (Épicerie du Lac)')
    expect(describeEvent(byMarie, 'f@x.fr')).toContain('Marie (Épicerie du Lac)')
  })
  it('names an emitter whose email the feed does not give', () => {
    expect(emitterLabel({ origin: { name: 'Épicerie du Lac' } }, 'fermedessaules@exemple.fr')).toBe('Épicerie du Lac')
    expect(
      describeEvent(
        { ...e, type: 'proposal:review', data: { outcome: false }, origin: { name: 'Épicerie du Lac' } },
        'f@x.fr',
      ),
    ).toContain('Épicerie du Lac')
  })
})

// The parties of the wording tests: the shop and the farm, each viewing.
const SHOP = { email: 'epicerie@exemple.fr', name: 'Épicerie du Lac' }
const FARM = { email: 'ferme@exemple.fr', name: 'Ferme des Glières' }
const tomate = { name: 'Tomate', unit: 'kg' as const }
const melon = { name: 'Melon', unit: 'un' as const }
const abricot = { name: 'Abricot', unit: 'kg' as const }

const ev = (type: EventType, data: EventData, from = SHOP, to: { name: string } | null = null): ActivityEvent => ({
  _id: 'e1',
  createdAt: '2026-11-20T09:15:00Z',
  type,
  data,
  origin: from,
  target: to ?? undefined,
})

describe('describeEvent', () => {
  // [type, data, emitter, target, what the emitter reads, what the target reads]
  const cases: [EventType, EventData, typeof SHOP, typeof SHOP | null, string, string][] = [
    [
      'need:create',
      { product: tomate, date: '2026-12-01', quantity: 120.5 },
      SHOP,
      null,
      'Vous avez créé un besoin de 120,5 kg de Tomate pour décembre 2026.',
      'Épicerie du Lac a créé un besoin de 120,5 kg de Tomate pour décembre 2026.',
    ],
    [
      'need:update',
      { product: abricot, date: '2027-06-01', quantity: 140, delta: 20, vector: true },
      SHOP,
      null,
      "Vous avez modifié votre besoin d'Abricot pour juin 2027 : +20 kg (140 kg au total).",
      "Épicerie du Lac a modifié son besoin d'Abricot pour juin 2027 : +20 kg (140 kg au total).",
    ],
    [
      'need:delete',
      { product: melon, date: '2026-12-01', quantity: 30 },
      SHOP,
      null,
      'Vous avez supprimé votre besoin de Melon pour décembre 2026 (30 pièces).',
      'Épicerie du Lac a supprimé son besoin de Melon pour décembre 2026 (30 pièces).',
    ],
    [
      'need:create:bulk',
      { product: tomate, dates: ['2027-02-01', '2026-12-01', '2027-01-01'], quantity: 360, count: 3 },
      SHOP,
      null,
      'Vous avez ajouté 3 besoins de Tomate de décembre 2026 à février 2027, 360 kg au total.',
      'Épicerie du Lac a ajouté 3 besoins de Tomate de décembre 2026 à février 2027, 360 kg au total.',
    ],
    [
      'need:import',
      { dates: ['2026-12-01', '2027-11-01'], count: 42 },
      SHOP,
      null,
      'Vous avez importé 42 besoins de décembre 2026 à novembre 2027.',
      'Épicerie du Lac a importé 42 besoins de décembre 2026 à novembre 2027.',
    ],
    [
      'need:import',
      { dates: ['2027-04-01', '2027-08-01'], count: 5 },
      SHOP,
      null,
      "Vous avez importé 5 besoins d'avril 2027 à août 2027.",
      "Épicerie du Lac a importé 5 besoins d'avril 2027 à août 2027.",
    ],
    [
      'proposal:request',
      { product: tomate, date: '2026-12-01', quantity: 50 },
      FARM,
      SHOP,
      'Vous avez proposé 50 kg de Tomate pour décembre 2026 à Épicerie du Lac.',
      'Ferme des Glières vous a proposé 50 kg de Tomate pour décembre 2026.',
    ],
    [
      'proposal:review',
      { product: tomate, date: '2026-12-01', quantity: 50, outcome: true },
      SHOP,
      FARM,
      'Vous avez accepté la proposition de Ferme des Glières : 50 kg de Tomate pour décembre 2026.',
      'Épicerie du Lac a accepté votre proposition : 50 kg de Tomate pour décembre 2026.',
    ],
    [
      'proposal:review',
      { product: melon, date: '2026-12-01', quantity: 1, outcome: false },
      SHOP,
      FARM,
      'Vous avez refusé la proposition de Ferme des Glières : 1 pièce de Melon pour décembre 2026.',
      'Épicerie du Lac a refusé votre proposition : 1 pièce de Melon pour décembre 2026.',
    ],
    [
      'fix:request',
      { product: tomate, date: '2026-12-01', quantity: 40, delta: 10, vector: false },
      FARM,
      SHOP,
      "Vous avez demandé à Épicerie du Lac de corriger l'engagement de Tomate pour décembre 2026 : 40 kg (\u221210 kg).",
      "Ferme des Glières vous a demandé de corriger l'engagement de Tomate pour décembre 2026 : 40 kg (\u221210 kg).",
    ],
    [
      'fix:review',
      { product: tomate, date: '2026-12-01', quantity: 40, outcome: true },
      SHOP,
      FARM,
      "Vous avez accepté la correction de Ferme des Glières sur l'engagement de Tomate pour décembre 2026 : 40 kg.",
      "Épicerie du Lac a accepté votre correction sur l'engagement de Tomate pour décembre 2026 : 40 kg.",
    ],
    [
      'fix:review',
      { product: tomate, date: '2026-12-01', quantity: 40, outcome: false },
      FARM,
      SHOP,
      "Vous avez refusé la correction d'Épicerie du Lac sur l'engagement de Tomate pour décembre 2026 : 40 kg.",
      "Ferme des Glières a refusé votre correction sur l'engagement de Tomate pour décembre 2026 : 40 kg.",
    ],
    [
      'claim:request',
      { product: tomate, date: '2026-12-12', quantity: 2.5, delta: 2.5, vector: false },
      FARM,
      SHOP,
      "Vous avez envoyé une demande d'avoir à Épicerie du Lac pour la livraison du 12 décembre 2026 (Tomate : \u22122,5 kg).",
      "Ferme des Glières vous a envoyé une demande d'avoir pour la livraison du 12 décembre 2026 (Tomate : \u22122,5 kg).",
    ],
    [
      'claim:review',
      { date: '2026-12-01', outcome: false },
      SHOP,
      FARM,
      "Vous avez refusé la demande d'avoir de Ferme des Glières pour la livraison du 1er décembre 2026.",
      "Épicerie du Lac a refusé votre demande d'avoir pour la livraison du 1er décembre 2026.",
    ],
    [
      'claim:autovalidate',
      { date: '2026-12-12', outcome: true },
      FARM,
      SHOP,
      "Votre demande d'avoir à Épicerie du Lac pour la livraison du 12 décembre 2026 a été validée automatiquement, faute de réponse dans le délai prévu.",
      "La demande d'avoir de Ferme des Glières pour la livraison du 12 décembre 2026 a été validée automatiquement, faute de réponse de votre part dans le délai prévu.",
    ],
    [
      'payment:record',
      { date: '2026-12-02', amount: 125.4 },
      FARM,
      SHOP,
      "Vous avez enregistré un paiement de 125,40\u00a0€ d'Épicerie du Lac du 2 décembre 2026.",
      'Ferme des Glières a enregistré votre paiement de 125,40\u00a0€ du 2 décembre 2026.',
    ],
    [
      'payment:declare',
      { date: '2026-12-03', amount: 50 },
      SHOP,
      FARM,
      'Vous avez déclaré un paiement de 50,00\u00a0€ à Ferme des Glières du 3 décembre 2026.',
      'Épicerie du Lac a déclaré vous avoir payé 50,00\u00a0€ le 3 décembre 2026 : confirmez-le à sa réception.',
    ],
    [
      'payment:confirm',
      { date: '2026-12-03', amount: 50, outcome: false },
      FARM,
      SHOP,
      "Vous avez refusé le paiement de 50,00\u00a0€ d'Épicerie du Lac du 3 décembre 2026.",
      'Ferme des Glières a refusé votre paiement de 50,00\u00a0€ du 3 décembre 2026.',
    ],
    [
      'payment:undo',
      { date: '2026-12-02', amount: 125.4 },
      FARM,
      SHOP,
      'Vous avez annulé le paiement de 125,40\u00a0€ du 2 décembre 2026.',
      'Ferme des Glières a annulé le paiement de 125,40\u00a0€ du 2 décembre 2026.',
    ],
    [
      'invoice:status',
      { number: 'FA-2026-000001', status: '200' },
      FARM,
      SHOP,
      'Votre facture FA-2026-000001 à Épicerie du Lac a été déposée sur votre plateforme agréée.',
      'La facture FA-2026-000001 de Ferme des Glières a été déposée sur sa plateforme agréée.',
    ],
    [
      'invoice:status',
      { number: 'FA-2026-000001', status: '210', reason: 'Marchandise non commandée' },
      FARM,
      SHOP,
      'Épicerie du Lac a refusé votre facture FA-2026-000001 (motif : Marchandise non commandée).',
      'Vous avez refusé la facture FA-2026-000001 de Ferme des Glières (motif : Marchandise non commandée).',
    ],
    [
      'invoice:status',
      { number: 'FA-2026-000002', status: '213', reason: 'Facture en doublon' },
      FARM,
      SHOP,
      'Votre plateforme agréée a rejeté votre facture FA-2026-000002 (motif : Facture en doublon) : elle est réputée non émise.',
      'La facture FA-2026-000002 de Ferme des Glières a été rejetée par sa plateforme agréée (motif : Facture en doublon) : elle est réputée non émise.',
    ],
    [
      'invoice:status',
      { number: 'AV-2026-000001', status: '200' },
      FARM,
      SHOP,
      'Votre avoir AV-2026-000001 à Épicerie du Lac a été déposé sur votre plateforme agréée.',
      "L'avoir AV-2026-000001 de Ferme des Glières a été déposé sur sa plateforme agréée.",
    ],
    [
      'invoice:status',
      { number: 'FA-2026-000001', status: '212' },
      FARM,
      SHOP,
      'Votre facture FA-2026-000001 est encaissée.',
      'La facture FA-2026-000001 de Ferme des Glières est encaissée : votre paiement est reçu.',
    ],
  ]

  it.each(cases)('%s as the emitter', (type, data, from, to, mine) => {
    expect(describeEvent(ev(type, data, from, to), from.email)).toBe(mine)
  })

  it.each(cases)('%s as the other side', (type, data, from, to, _mine, theirs) => {
    const viewer = from === SHOP ? FARM : SHOP
    expect(describeEvent(ev(type, data, from, to), viewer.email)).toBe(theirs)
  })

  it('words every PRODUCT §4 type, and only those', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(EVENT_TYPES))
    expect(EVENT_TYPES).toHaveLength(17)
  })

  it('matches the viewer case-insensitively', () => {
    expect(describeEvent(ev('need:delete', { product: tomate }), 'EPICERIE@Exemple.fr')).toBe(
      'Vous avez supprimé votre besoin de Tomate.',
    )
  })

  it('leaves out missing data', () => {
    expect(describeEvent(ev('need:create', {}), SHOP.email)).toBe('Vous avez créé un besoin.')
    expect(describeEvent(ev('need:create', { product: abricot }), SHOP.email)).toBe(
      "Vous avez créé un besoin d'Abricot.",
    )
    expect(describeEvent(ev('need:update', { product: tomate, date: '2026-12-01', quantity: 80 }), SHOP.email)).toBe(
      'Vous avez modifié votre besoin de Tomate pour décembre 2026 : 80 kg.',
    )
    expect(describeEvent(ev('need:import', {}), SHOP.email)).toBe('Vous avez importé des besoins.')
    expect(
      describeEvent(ev('need:create:bulk', { product: tomate, dates: ['2026-12-01'], count: 1 }), SHOP.email),
    ).toBe('Vous avez ajouté 1 besoin de Tomate pour décembre 2026.')
    expect(describeEvent(ev('proposal:request', {}, FARM, SHOP), SHOP.email)).toBe(
      'Ferme des Glières vous a proposé une offre.',
    )
    expect(describeEvent(ev('proposal:review', {}, SHOP, FARM), FARM.email)).toBe(
      'Épicerie du Lac a examiné votre proposition.',
    )
  })

  it('throws on an unknown type (PRODUCT §4)', () => {
    const bad = { ...ev('need:create', {}), type: 'need:explode' as EventType }
    expect(() => describeEvent(bad, SHOP.email)).toThrow(UnknownEventTypeError)
    expect(() => describeEvent(bad, SHOP.email)).toThrow("Type d'évènement inconnu : need:explode")
  })
})

describe('wording helpers', () => {
  it.each([
    [12.5, 'kg', '12,5 kg'],
    [1234.56, 'kg', '1\u202f234,56 kg'],
    [1, 'un', '1 pièce'],
    [3, 'un', '3 pièces'],
  ])('quantityText(%s, %s) = %s', (v, unit, want) => expect(quantityText(v, unit)).toBe(want))

  it.each([
    [20, true, '+20 kg'],
    [20, false, '\u221220 kg'],
    [-2.5, undefined, '\u22122,5 kg'],
    [2.5, undefined, '+2,5 kg'],
  ])('deltaText(%s, %s) = %s', (d, vector, want) => expect(deltaText(d, vector, 'kg')).toBe(want))

  it.each([
    ['2026-12-12', '12 décembre 2026'],
    ['2026-12-01', '1er décembre 2026'],
    ['bientôt', 'bientôt'],
  ])('formatDayInWords(%s) = %s', (d, want) => expect(formatDayInWords(d)).toBe(want))
})

describe('French contractions of names', () => {
  // The cases the daemon's rule (core/grammar) is tested with too.
  it.each(contractions)('$name', ({ name, de: withDe, a: withTo, avoir: has }) => {
    expect(de(name)).toBe(withDe)
    expect(to(name)).toBe(withTo)
    expect(avoir(name)).toBe(has)
  })

  it('contracts in sentences', () => {
    const farm = { email: 'jardins@exemple.fr', name: "Les Jardins d'Alby" }
    const shop = { email: 'panier@exemple.fr', name: 'Le Panier des Aravis' }
    const request: ActivityEvent = {
      _id: 'e1',
      createdAt: '2026-11-20T09:15:00Z',
      type: 'proposal:request',
      data: { quantity: 5 },
      origin: farm,
      target: shop,
    }
    expect(describeEvent(request, farm.email)).toBe('Vous avez proposé 5 kg au Panier des Aravis.')
    const review: ActivityEvent = {
      ...request,
      type: 'proposal:review',
      data: { outcome: true },
      origin: shop,
      target: farm,
    }
    expect(describeEvent(review, shop.email)).toBe("Vous avez accepté la proposition des Jardins d'Alby.")
  })

  it('puts the verb in the plural after a plural name (Les …, Des …), for every event another emits', () => {
    const farm = { email: 'jardins@exemple.fr', name: "Les Jardins d'Alby" }
    const shop = { email: 'panier@exemple.fr', name: 'Le Panier des Aravis' }
    const at = '2026-11-20T09:15:00Z'
    const seen = (type: ActivityEvent['type'], data: ActivityEvent['data'] = {}, origin = farm) =>
      describeEvent(
        { _id: 'e1', createdAt: at, type, data, origin, target: origin === farm ? shop : farm },
        'autre@exemple.fr',
      )
    const viewed = (type: ActivityEvent['type'], data: ActivityEvent['data'] = {}, origin = farm) =>
      describeEvent({ _id: 'e1', createdAt: at, type, data, origin, target: origin === farm ? shop : farm }, shop.email)
    expect(viewed('proposal:request', { quantity: 5 })).toBe("Les Jardins d'Alby vous ont proposé 5 kg.")
    expect(viewed('fix:request', { quantity: 5 })).toBe(
      "Les Jardins d'Alby vous ont demandé de corriger l'engagement : 5 kg.",
    )
    expect(viewed('claim:request')).toBe("Les Jardins d'Alby vous ont envoyé une demande d'avoir.")
    expect(viewed('proposal:review', { outcome: true })).toBe("Les Jardins d'Alby ont accepté votre proposition.")
    expect(seen('need:create', { quantity: 5 })).toBe("Les Jardins d'Alby ont créé un besoin de 5 kg.")
    expect(viewed('payment:declare', { amount: 12 })).toBe(
      "Les Jardins d'Alby ont déclaré vous avoir payé 12,00\u00a0€ : confirmez-le à sa réception.",
    )
    const des = { email: 'racines@exemple.fr', name: 'Des Racines et des Fruits' }
    expect(viewed('proposal:request', { quantity: 5 }, des)).toBe('Des Racines et des Fruits vous ont proposé 5 kg.')
    // Singular names keep "a"; "Lesage" is no article.
    expect(viewed('proposal:request', { quantity: 5 }, { email: 'l@x.fr', name: 'Lesage Primeurs' })).toBe(
      'Lesage Primeurs vous a proposé 5 kg.',
    )
    expect(seen('proposal:request', { quantity: 5 }, shop)).toBe('Le Panier des Aravis vous a proposé 5 kg.')
  })
})
