import { notifications } from '@mantine/notifications'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ActivityEvent, Need } from '../types'
import {
  clearStandardImport,
  commitStandard,
  IMPORT_MESSAGES,
  type ImportResult,
  chooseSheet,
  importFile,
  importState,
  isCSVName,
  isImportName,
  isWorkbookName,
  MSG_FILE_TYPE,
  previewFile,
  cancelPreview,
  resetImports,
  simulateStandard,
} from './imports'
import { resetState, state } from './state'

const need = (id: string, product: string, date: string, quantity: number): Need => ({
  _id: id,
  product,
  distributor: 'd1',
  date,
  quantity,
  quantityAccepted: 0,
  quantityProposed: 0,
  quantityAvailable: quantity,
  updatedAt: '2026-11-20T10:00:00Z',
  proposals: [],
})

const event: ActivityEvent = {
  _id: 'e1',
  createdAt: '2026-11-20T10:00:00Z',
  type: 'need:import',
  data: { dates: ['2027-01-01'] },
  origin: { email: 'epicerie@exemple.fr', name: 'Épicerie' },
  target: { name: '' },
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 400 ? 'application/json' : 'application/problem+json' },
  })

// Toast titles shown so far (progress toasts are updated in place).
const toastTitles = () => {
  const spy = vi.spyOn(notifications, 'show')
  const update = vi.spyOn(notifications, 'update')
  return () => [...spy.mock.calls.map((c) => String(c[0].title)), ...update.mock.calls.map((c) => String(c[0].title))]
}

beforeEach(() => {
  resetState('epicerie@exemple.fr')
  resetImports()
})

describe('importFile', () => {
  it('uploads the file in the importfile field, merges the needs and the event, and says so', async () => {
    state.needs = [need('n1', 'tomate', '2027-01-01', 10), need('n2', 'carotte', '2027-01-01', 5)]
    const result: ImportResult = {
      needs: [need('n1', 'tomate', '2027-01-01', 120.5), need('n3', 'melon', '2027-02-01', 4)],
      productsFound: ['Tomate', 'Melon'],
      productsMissing: ['Kumquat'],
      dbErrors: [],
      dbSuccesses: 2,
      event,
    }
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(result))
    const titles = toastTitles()
    const file = new File(['PK'], 'Besoins.XLSX')
    const outcome = await importFile(file)

    expect(outcome).toEqual({ ok: true, result })
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/needs-loader')
    expect(init?.method).toBe('POST')
    const body = init?.body as FormData
    expect(body).toBeInstanceOf(FormData)
    expect((body.get('importfile') as File).name).toBe('Besoins.XLSX')
    expect(state.needs.map((n) => [n._id, n.quantity])).toEqual([
      ['n1', 120.5],
      ['n2', 5],
      ['n3', 4],
    ])
    expect(state.events[0]).toEqual(event)
    expect(body.get('sheet')).toBeNull()
    expect(importState.file).toEqual({
      status: 'idle',
      preview: null,
      result,
      rejection: null,
      sheet: null,
      sheets: [],
    })
    expect(titles()).toEqual([IMPORT_MESSAGES.progress, IMPORT_MESSAGES.success])
  })

  it('keeps the server rejection and shows the failure toast', async () => {
    const detail = 'Quantité illisible en B4 (« douze ») : saisissez un nombre.'
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ status: 422, title: 'Unprocessable Entity', detail }, 422))
    const titles = toastTitles()
    state.needs = [need('n1', 'tomate', '2027-01-01', 10)]
    const outcome = await importFile(new File(['x'], 'b.xlsx'))
    expect(outcome).toEqual({ ok: false, rejection: { status: 422, detail, problems: [detail] } })
    expect(importState.file.status).toBe('error')
    expect(importState.file.rejection).toEqual({ status: 422, detail, problems: [detail] })
    expect(state.needs).toHaveLength(1)
    expect(titles()).toEqual([IMPORT_MESSAGES.progress, IMPORT_MESSAGES.failure])
  })

  it('refuses a file of a type the daemon does not know without calling the server', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const outcome = await importFile(new File(['x'], 'besoins.pdf'))
    expect(fetch).not.toHaveBeenCalled()
    expect(outcome).toEqual({ ok: false, rejection: { status: 0, detail: MSG_FILE_TYPE, problems: [MSG_FILE_TYPE] } })
    for (const name of [' a.xlsx ', 'b.ODS', 'c.csv']) expect(isImportName(name)).toBe(true)
    for (const name of ['a.xlsx.pdf', 'a.xls', 'a.numbers', 'ods']) expect(isImportName(name)).toBe(false)
    expect(isCSVName('Besoins.CSV')).toBe(true)
    expect(isCSVName('besoins.ods')).toBe(false)
  })

  it("sends Excel's other workbooks to the daemon, which says how to save them", async () => {
    // The daemon's refusal of an .xls (core/planning MsgImportLegacy, shortened).
    const detail = 'Les classeurs Excel 97-2003 (.xls) ne sont pas lus : enregistrez une copie au format .xlsx ou .ods…'
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(json({ status: 422, title: 'Unprocessable Entity', detail }, 422))
    const outcome = await importFile(new File(['x'], 'besoins.xls'))
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(outcome).toEqual({ ok: false, rejection: { status: 422, detail, problems: [detail] } })
    for (const name of ['a.xls', 'a.XLSM', 'a.xlsb', 'a.ods']) expect(isWorkbookName(name)).toBe(true)
    expect(isWorkbookName('a.pdf')).toBe(false)
  })

  it('reports an unreachable server', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    const outcome = await importFile(new File(['x'], 'b.xlsx'))
    expect(outcome.ok).toBe(false)
    expect(importState.file.rejection?.detail).toBe('Failed to fetch')
  })
})

describe('previewFile', () => {
  it('asks the preview route, keeps what the import would write and writes nothing', async () => {
    state.needs = [need('n1', 'tomate', '2027-01-01', 10)]
    const preview: ImportResult = {
      needs: [need('n1', 'tomate', '2027-01-01', 120)],
      productsFound: ['Tomate'],
      productsMissing: [],
      dbErrors: [],
      dbSuccesses: 1,
      changes: [{ product: 'Tomate', productId: 'tomate', date: '2027-01-01', cell: 'B3', from: 10, to: 120 }],
    }
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(preview))
    const titles = toastTitles()
    const outcome = await previewFile(new File(['PK'], 'b.xlsx'))
    expect(outcome).toEqual({ ok: true, result: preview })
    expect(fetch.mock.calls[0][0]).toBe('/api/needs-loader/preview')
    expect(importState.file.preview).toEqual(preview)
    expect(state.needs[0].quantity).toBe(10)
    expect(titles()).toEqual([])
    cancelPreview()
    expect(importState.file.preview).toBeNull()
  })

  it('keeps every problem of a refused file', async () => {
    const errors = [
      { location: 'body.importfile', message: 'Quantité illisible en B2 (« douze ») : …' },
      { location: 'body.importfile', message: 'Quantité négative en B4 (« -3 ») : …' },
    ]
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({ status: 422, title: 'Unprocessable Entity', detail: errors[0].message, errors }, 422),
    )
    const outcome = await previewFile(new File(['x'], 'b.xlsx'))
    expect(outcome.ok).toBe(false)
    expect(importState.file.rejection?.problems).toEqual(errors.map((e) => e.message))
    expect(importState.file.sheets).toEqual([])
  })

  it('keeps the sheets a preview names, and previews then imports the sheet chosen', async () => {
    const answer = (sheet: string): ImportResult => ({
      needs: [],
      productsFound: ['Tomate'],
      productsMissing: [],
      dbErrors: [],
      dbSuccesses: 1,
      changes: [{ product: 'Tomate', productId: 'tomate', date: '2027-01-01', cell: 'B3', from: null, to: 12 }],
      sheet,
      sheets: ['2026', '2027'],
    })
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(answer('2027')))
      .mockResolvedValueOnce(json(answer('2026')))
      .mockResolvedValueOnce(json(answer('2026')))
    const file = new File(['PK'], 'besoins.ods')
    await previewFile(file)
    const sent = (call: number) => fetch.mock.calls[call][1]?.body as FormData
    expect(sent(0).get('sheet')).toBeNull()
    expect(importState.file.sheet).toBeNull()
    expect(importState.file.sheets).toEqual(['2026', '2027'])
    expect(importState.file.preview?.sheet).toBe('2027')

    await chooseSheet(file, '2026')
    expect(fetch.mock.calls[1][0]).toBe('/api/needs-loader/preview')
    expect(sent(1).get('sheet')).toBe('2026')
    expect(importState.file.sheet).toBe('2026')
    expect(importState.file.preview?.sheet).toBe('2026')

    await importFile(file)
    expect(fetch.mock.calls[2][0]).toBe('/api/needs-loader')
    expect(sent(2).get('sheet')).toBe('2026')
    expect(importState.file.result?.sheet).toBe('2026')
  })

  it('keeps the sheets a refusal of an ambiguous choice offers, and reads the one chosen', async () => {
    const detail =
      "Plusieurs feuilles contiennent un tableau de besoins (« 2027 », « 2028 ») et aucune n'est la feuille active : choisissez celle à importer."
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        json(
          {
            status: 422,
            title: 'Unprocessable Entity',
            detail,
            errors: [{ location: 'body.sheet', message: detail, value: ['2027', '2028'] }],
          },
          422,
        ),
      )
      .mockResolvedValueOnce(
        json({
          needs: [],
          productsFound: [],
          productsMissing: [],
          dbErrors: [],
          dbSuccesses: 0,
          sheet: '2028',
          sheets: ['2027', '2028'],
        }),
      )
    const file = new File(['PK'], 'besoins.ods')
    const outcome = await previewFile(file)
    expect(outcome).toEqual({ ok: false, rejection: { status: 422, detail, problems: [detail] } })
    expect(importState.file.sheets).toEqual(['2027', '2028'])

    await chooseSheet(file, '2028')
    expect((fetch.mock.calls[1][1]?.body as FormData).get('sheet')).toBe('2028')
    expect(importState.file.rejection).toBeNull()
    expect(importState.file.preview?.sheet).toBe('2028')
    expect(importState.file.sheets).toEqual(['2027', '2028'])
  })
})

describe('standard import', () => {
  const months = ['2026-12-01', '2027-01-01', '2027-02-01', '2027-03-01', '2027-04-01']
  const preview = [{ _id: 'carotte', name: 'Carotte', unit: 'kg', values: [{ date: '2026-12-01', quantity: 617.72 }] }]

  it('simulates with the first three months, then commits every month', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(preview))
    expect(await simulateStandard(135000, months)).toBe(true)
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ turnover: 135000, months: months.slice(0, 3) })
    expect(fetch.mock.calls[0][0]).toBe('/api/needs/importstd/sim')
    expect(importState.standard).toMatchObject({ status: 'idle', preview, request: { turnover: 135000, months } })

    const written = { needs: [need('n9', 'carotte', '2026-12-01', 617.72)], event, dbErrors: [], dbSuccesses: 1 }
    fetch.mockResolvedValueOnce(json(written))
    const titles = toastTitles()
    const outcome = await commitStandard()
    expect(outcome).toEqual({ ok: true, result: written })
    expect(fetch.mock.calls[1][0]).toBe('/api/needs/importstd/commit')
    expect(JSON.parse(String(fetch.mock.calls[1][1]?.body))).toEqual({ turnover: 135000, months })
    expect(state.needs).toEqual(written.needs)
    expect(state.events[0]).toEqual(event)
    expect(importState.standard.preview).toBeNull()
    expect(importState.standard.result).toEqual(written)
    expect(titles()).toEqual([IMPORT_MESSAGES.progress, IMPORT_MESSAGES.success])
  })

  it('returns silently to idle when the simulation fails (PRODUCT §7)', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({ status: 422, detail: 'Le chiffre d’affaires saisi est trop grand.' }, 422),
    )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const titles = toastTitles()
    expect(await simulateStandard(5e9, months)).toBe(false)
    expect(importState.standard).toEqual({ status: 'idle', preview: null, request: null, result: null })
    expect(titles()).toEqual([])
  })

  it('shows the failure toast when the commit fails, and keeps the preview', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json(preview))
    await simulateStandard(135000, months)
    fetch.mockResolvedValueOnce(
      json({ status: 422, detail: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.' }, 422),
    )
    const titles = toastTitles()
    const outcome = await commitStandard()
    expect(outcome).toEqual({ ok: false, message: 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.' })
    expect(importState.standard.preview).toEqual(preview)
    expect(titles()).toEqual([IMPORT_MESSAGES.progress, IMPORT_MESSAGES.failure])
    clearStandardImport()
    expect(await commitStandard()).toEqual({ ok: false, message: 'Aucune simulation à importer.' })
  })
})
