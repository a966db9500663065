import { notifications } from '@mantine/notifications'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { need, proposal } from '../test/needs'
import type { ActivityEvent } from '../types'
import { distributor } from '../test/fixtures'
import {
  NEED_MESSAGES,
  bulkNeeds,
  commitCell,
  createNeed,
  loadNeed,
  loadShopNeed,
  loadShopNeeds,
  newShopVisit,
  removeNeed,
  updateNeed,
} from './needs'
import { resetState, state } from './state'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json' },
  })

const problem = (status: number, detail: string) => json(status, { status, title: 'x', detail })

/** Titles of the toasts shown or updated so far. */
function toastTitles(): string[] {
  const show = vi.mocked(notifications.show).mock.calls.map(([n]) => String(n.title))
  const update = vi.mocked(notifications.update).mock.calls.map(([n]) => String(n.title))
  return [...show, ...update]
}

let fetchMock: ReturnType<typeof vi.spyOn>

beforeEach(() => {
  resetState('shop@exemple.fr')
  vi.spyOn(notifications, 'show')
  vi.spyOn(notifications, 'update')
  fetchMock = vi.spyOn(globalThis, 'fetch')
})

afterEach(() => {
  vi.restoreAllMocks()
})

const lastCall = () => {
  const [url, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit]
  return { url, method: init.method, body: init.body ? JSON.parse(String(init.body)) : undefined }
}

describe('needs actions', () => {
  it('creates a need and adds it to the list', async () => {
    const created = need('tomate', '2026-12-01', 12.5)
    fetchMock.mockResolvedValue(json(201, created))
    const result = await createNeed({ product: 'tomate', date: '2026-12-01', quantity: 12.5 })
    expect(result).toEqual({ ok: true, value: created })
    expect(lastCall()).toEqual({
      url: '/api/needs',
      method: 'POST',
      body: { product: 'tomate', date: '2026-12-01', quantity: 12.5 },
    })
    expect(state.needs).toEqual([created])
    expect(state.loading.needs).toBe('idle')
    expect(toastTitles()).toEqual([NEED_MESSAGES.createProgress, NEED_MESSAGES.created])
  })

  it('updates a need in place', async () => {
    const old = need('tomate', '2026-12-01', 10)
    state.needs = [need('pomme', '2026-12-01', 1), old]
    const updated = { ...old, quantity: 20, quantityAvailable: 20 }
    fetchMock.mockResolvedValue(json(200, updated))
    expect((await updateNeed(old, 20)).ok).toBe(true)
    expect(lastCall()).toEqual({
      url: `/api/needs/${old._id}`,
      method: 'PUT',
      body: { _id: old._id, product: 'tomate', date: '2026-12-01', quantity: 20 },
    })
    expect(state.needs.map((n) => n.quantity)).toEqual([1, 20])
    expect(toastTitles()).toEqual([NEED_MESSAGES.updateProgress, NEED_MESSAGES.updated])
  })

  it('deletes a need from the list', async () => {
    const gone = need('tomate', '2026-12-01', 10)
    state.needs = [gone, need('pomme', '2026-12-01', 1)]
    fetchMock.mockResolvedValue(json(200, gone))
    expect((await removeNeed(gone._id)).ok).toBe(true)
    expect(lastCall()).toMatchObject({ url: `/api/needs/${gone._id}`, method: 'DELETE' })
    expect(state.needs.map((n) => n.product)).toEqual(['pomme'])
    expect(toastTitles()).toEqual([NEED_MESSAGES.deleteProgress, NEED_MESSAGES.deleted])
  })

  it('keeps the list and says why when the daemon refuses', async () => {
    const kept = need('tomate', '2026-12-01', 10)
    state.needs = [kept]
    fetchMock.mockResolvedValue(
      problem(
        409,
        'La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.',
      ),
    )
    const result = await updateNeed(kept, 1)
    expect(result).toEqual({
      ok: false,
      message: 'La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.',
    })
    expect(state.needs).toEqual([kept])
    expect(state.loading.needs).toBe('idle')
    expect(toastTitles()).toEqual([NEED_MESSAGES.updateProgress, NEED_MESSAGES.updateFailed])
    expect(vi.mocked(notifications.update).mock.calls[0][0].message).toBe(result.ok ? '' : result.message)
  })

  it('bulk-adds: replaces and adds needs, and puts the event first in the feed', async () => {
    const existing = need('melon', '2026-12-01', 3)
    state.needs = [existing]
    const older = {
      createdAt: '2026-11-19T10:00:00Z',
      type: 'need:create',
      data: {},
      origin: { email: 'a', name: 'a' },
      target: { name: '' },
    }
    state.events = [older as ActivityEvent]
    const event = { ...older, createdAt: '2026-11-20T10:00:00Z', type: 'need:create:bulk' } as ActivityEvent
    const replaced = { ...existing, quantity: 30 }
    const added = need('melon', '2027-01-01', 40)
    fetchMock.mockResolvedValue(json(200, { needs: [replaced, added], event }))
    const result = await bulkNeeds({ product: 'melon', quantities: [30, 40], dates: ['2026-12-01', '2027-01-01'] })
    expect(result.ok).toBe(true)
    expect(lastCall()).toEqual({
      url: '/api/needs/bulk',
      method: 'POST',
      body: { product: 'melon', quantities: [30, 40], dates: ['2026-12-01', '2027-01-01'] },
    })
    expect(state.needs.map((n) => [n.date, n.quantity])).toEqual([
      ['2026-12-01', 30],
      ['2027-01-01', 40],
    ])
    expect(state.events.map((e) => e.type)).toEqual(['need:create:bulk', 'need:create'])
    expect(toastTitles()).toEqual([NEED_MESSAGES.createProgress, NEED_MESSAGES.created])
  })
})

describe('loadShopNeeds', () => {
  const view = { from: '2026-11-01', to: '2027-06-01' }

  it("loads the months in view of a shop's needs apart from the producer's own, each month once a visit", async () => {
    const own = need('tomate', '2026-12-01', 1)
    state.needs = [own]
    const theirs = [need('pomme', '2026-12-01', 5)]
    fetchMock.mockResolvedValue(json(200, theirs))
    const visit = newShopVisit()
    expect(await loadShopNeeds('d 2', visit, view)).toBe(true)
    expect(lastCall()).toMatchObject({
      url: '/api/needs?distributor=d%202&from=2026-11-01&to=2027-06-01',
      method: 'GET',
    })
    expect(state.shopNeeds).toEqual({ distributor: 'd 2', needs: theirs })
    expect(state.needs).toEqual([own])
    expect(state.loading.shopNeeds).toBe('idle')
    // No toast over the page on a plain load (issue 37).
    expect(toastTitles()).toEqual([])
    // Back half a span: only the months before; the months held stay.
    const older = need('poire', '2026-08-01', 2)
    fetchMock.mockResolvedValue(json(200, [older]))
    expect(await loadShopNeeds('d 2', visit, { from: '2026-07-01', to: '2027-02-01' })).toBe(true)
    expect(lastCall()).toMatchObject({ url: '/api/needs?distributor=d%202&from=2026-07-01&to=2026-10-01' })
    expect(state.shopNeeds.needs).toEqual([...theirs, older])
    expect(fetchMock).toHaveBeenCalledTimes(2)
    // A new visit reads afresh.
    fetchMock.mockResolvedValue(json(200, theirs))
    expect(await loadShopNeeds('d 2', newShopVisit(), view)).toBe(true)
    expect(state.shopNeeds.needs).toEqual(theirs)
    expect(fetchMock).toHaveBeenCalledTimes(3)
  })

  it('says when the load fails, and reads the same months again on a retry', async () => {
    fetchMock.mockResolvedValue(problem(404, 'Ressource introuvable.'))
    const visit = newShopVisit()
    expect(await loadShopNeeds('nope', visit, view)).toBe(false)
    expect(state.loading.shopNeeds).toBe('error')
    expect(state.shopNeeds).toEqual({ distributor: 'nope', needs: [] })
    expect(toastTitles()).toEqual([NEED_MESSAGES.loadFailed])
    fetchMock.mockResolvedValue(json(200, []))
    expect(await loadShopNeeds('nope', visit)).toBe(true)
    expect(lastCall()).toMatchObject({ url: '/api/needs?distributor=nope&from=2026-11-01&to=2027-06-01' })
    expect(state.loading.shopNeeds).toBe('idle')
  })

  it('drops a load overtaken by the load of another shop', async () => {
    let answerFirst: (r: Response) => void = () => {}
    fetchMock
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answerFirst = resolve)))
      .mockResolvedValueOnce(json(200, [need('pomme', '2026-12-01', 5)]))
    const first = loadShopNeeds('a', newShopVisit(), view)
    expect(await loadShopNeeds('b', newShopVisit(), view)).toBe(true)
    answerFirst(json(200, [need('tomate', '2026-12-01', 1)]))
    expect(await first).toBe(false)
    expect(state.shopNeeds.distributor).toBe('b')
    expect(state.shopNeeds.needs.map((n) => n.product)).toEqual(['pomme'])
  })

  it('reads a need a link names of a month not read, once', async () => {
    fetchMock.mockResolvedValue(json(200, []))
    await loadShopNeeds('d1', newShopVisit(), view)
    const far = need('navet', '2027-09-01', 80)
    fetchMock.mockResolvedValue(json(200, far))
    expect(await loadShopNeed('d1', far._id)).toBe(true)
    expect(lastCall()).toMatchObject({ url: `/api/needs/${far._id}` })
    expect(await loadShopNeed('d1', far._id)).toBe(true)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(state.shopNeeds.needs).toEqual([far])
    // Another shop's need changes nothing.
    expect(await loadShopNeed('d2', far._id)).toBe(false)
  })
})

describe('loadNeed', () => {
  beforeEach(() => {
    state.user = distributor
  })

  it('reads a need the list does not hold, once, and keeps the list on a refusal', async () => {
    const held = need('tomate', '2026-12-01', 1)
    const other = need('pomme', '2025-03-01', 3)
    state.needs = [held]
    expect(await loadNeed(held._id)).toBe(true)
    expect(fetchMock).not.toHaveBeenCalled()

    fetchMock.mockResolvedValueOnce(json(200, other))
    expect(await loadNeed(other._id)).toBe(true)
    expect(lastCall()).toMatchObject({ url: `/api/needs/${other._id}`, method: 'GET' })
    expect(state.needs).toEqual([held, other])

    // Another shop's need, or a deleted one: nothing changes, no toast.
    fetchMock.mockResolvedValueOnce(problem(404, 'Introuvable.'))
    expect(await loadNeed('ailleurs')).toBe(false)
    expect(state.needs).toEqual([held, other])
    expect(toastTitles()).toEqual([])
  })
})

describe('commitCell', () => {
  const current = '2026-11-01'

  it('refuses a mistake without calling the daemon', async () => {
    const held = need('tomate', '2026-12-01', 10, { quantityAccepted: 6, proposals: [proposal('f1', 'accepted', 6)] })
    state.needs = [held]
    expect(await commitCell('tomate', 'kg', '2026-12-01', '5', current)).toEqual({
      kind: 'refused',
      message: 'La valeur saisie ne peut être inférieure à la somme des engagements et des propositions non traitées.',
    })
    expect(await commitCell('tomate', 'kg', '2026-12-01', '-5', current)).toEqual({
      kind: 'refused',
      message: 'La valeur saisie doit être supérieure à zéro.',
    })
    expect(await commitCell('tomate', 'kg', '2026-10-01', '5', current)).toEqual({
      kind: 'refused',
      message: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.',
    })
    expect(fetchMock).not.toHaveBeenCalled()
    expect(state.needs).toEqual([held])
  })

  it('does nothing for an unchanged cell', async () => {
    state.needs = [need('tomate', '2026-12-01', 10)]
    expect(await commitCell('tomate', 'kg', '2026-12-01', '10', current)).toEqual({ kind: 'unchanged' })
    expect(await commitCell('pomme', 'kg', '2026-12-01', '', current)).toEqual({ kind: 'unchanged' })
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('creates, updates and deletes by the PRODUCT rule', async () => {
    const created = need('pomme', '2026-12-01', 7.5)
    fetchMock.mockResolvedValueOnce(json(201, created))
    expect(await commitCell('pomme', 'kg', '2026-12-01', '7,5', current)).toEqual({ kind: 'saved' })
    expect(lastCall()).toMatchObject({ method: 'POST', body: { product: 'pomme', date: '2026-12-01', quantity: 7.5 } })

    fetchMock.mockResolvedValueOnce(json(200, { ...created, quantity: 9 }))
    expect(await commitCell('pomme', 'kg', '2026-12-01', '9', current)).toEqual({ kind: 'saved' })
    expect(lastCall()).toMatchObject({ method: 'PUT', body: { quantity: 9 } })

    fetchMock.mockResolvedValueOnce(json(200, created))
    expect(await commitCell('pomme', 'kg', '2026-12-01', '0', current)).toEqual({ kind: 'saved' })
    expect(lastCall()).toMatchObject({ method: 'DELETE', url: `/api/needs/${created._id}` })
    expect(state.needs).toEqual([])
  })

  it("reports the daemon's refusal", async () => {
    fetchMock.mockResolvedValueOnce(problem(409, 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.'))
    expect(await commitCell('pomme', 'kg', '2026-11-01', '3', current)).toEqual({
      kind: 'refused',
      message: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.',
    })
    expect(state.needs).toEqual([])
  })
})
