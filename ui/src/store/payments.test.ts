import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PaymentsView } from '../payments/types'
import { claimPayments, loadOlder, loadPayments, paymentsState, setReminders } from './payments'

// Issue 42: the older rows of an account are kept per account, page after
// page, and forgotten whenever the accounts are answered again.

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

const view = (older: number): PaymentsView => ({
  today: '2026-12-03',
  accounts: [
    {
      partnerId: 'd1',
      partnerName: 'Épicerie du Lac',
      owed: 0,
      onAccount: 0,
      overdue: 0,
      declared: 0,
      reminders: true,
      penalties: 0,
      indemnities: 0,
      late: [],
      documents: [],
      payments: [],
      olderDocuments: older,
      olderBefore: '2026-10-01',
    },
  ],
})

const page = (number: string, before?: string) => ({
  documents: [
    {
      _id: number,
      kind: 'invoice',
      number,
      issueDate: '2026-09-01',
      total: 1,
      credited: 0,
      paid: 1,
      balance: 0,
      status: 'paid',
      path: '/print/invoice/o',
    },
  ],
  payments: [],
  more: before !== undefined,
  before,
  olderDocuments: before ? 1 : 0,
  olderPayments: 0,
})

describe('loadOlder', () => {
  afterEach(() => vi.restoreAllMocks())

  it('appends each page at its start and stops when none remains', async () => {
    claimPayments('store-1')
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(view(2)))
      .mockResolvedValueOnce(json(page('FA-2', '2026-09-01')))
      .mockResolvedValueOnce(json(page('FA-1')))
    await loadPayments()
    await loadOlder('d1')
    expect(paymentsState.older.d1.before).toBe('2026-09-01')
    await loadOlder('d1')
    await loadOlder('d1') // nothing remains: no request
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual([
      '/api/payments',
      '/api/payments/d1/history?before=2026-10-01',
      '/api/payments/d1/history?before=2026-09-01',
    ])
    expect(paymentsState.older.d1.documents.map((d) => d.number)).toEqual(['FA-2', 'FA-1'])
    expect(paymentsState.older.d1.olderDocuments).toBe(0)
  })

  it('forgets the pages when a write answers the accounts, even one read meanwhile', async () => {
    claimPayments('store-2')
    let answer: (r: Response) => void = () => {}
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(view(2)))
      .mockResolvedValueOnce(json(page('FA-2', '2026-09-01')))
      .mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)))
      .mockResolvedValueOnce(json(view(2)))
    await loadPayments()
    await loadOlder('d1')
    expect(paymentsState.older.d1.documents).toHaveLength(1)
    const reading = loadOlder('d1')
    await setReminders('d1', false)
    expect(paymentsState.older).toEqual({})
    answer(json(page('FA-1')))
    await reading
    expect(paymentsState.older).toEqual({})
  })
})
