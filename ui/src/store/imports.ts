// Import actions (PRODUCT §2 "Add bar and imports", §7, §8): the spreadsheet
// file upload (`POST /api/needs-loader`) and the standard import (simulation,
// then commit). They keep `state.needs` and `state.events` in sync with what
// the daemon wrote, show the PRODUCT §8 toasts, and keep their own progress
// and outcome in `importState`, read through the hooks at the end.
import { proxy, useSnapshot } from 'valtio'
import { ApiError, api, errorMessage } from '../api'
import { progress } from '../notify'
import type { ActivityEvent, Need, Unit } from '../types'
import { PREVIEW_MONTHS } from '../validation/standardImport'
import { prependEvents } from './merge'
import type { LoadStatus } from './state'
import { held, state } from './state'

/** Toast texts of PRODUCT §8. */
export const IMPORT_MESSAGES = {
  progress: 'Importation en cours',
  success: 'Importation effectuée',
  failure: "Échec de l'importation",
} as const

/**
 * The daemon's message for a file of a type it does not read
 * (core/planning MsgImportExtension), checked here first.
 */
export const MSG_FILE_TYPE =
  "Ce type de fichier n'est pas lu : importez un classeur .xlsx (Excel), .ods (LibreOffice) ou un fichier .csv."

/** The daemon's message of a cell in a past month (core/planning MsgPastMonth). */
export const MSG_PAST_MONTH = 'Ce mois est passé : ses besoins ne peuvent plus être modifiés.'

/** Multipart field of the upload (PRODUCT §3). */
export const IMPORT_FIELD = 'importfile'

/** Multipart field naming the sheet to read (PRODUCT §3), and the field of the refusals about it. */
export const IMPORT_SHEET_FIELD = 'sheet'

/** A cell or need an import did not write, with why (an entry of `dbErrors`). */
export interface ImportError {
  /** Product name, as the catalogue spells it. */
  product: string
  productId: string
  /** The month, "2026-12-01". */
  date: string
  /** The quantity asked for. */
  quantity: number
  /** What commitments and pending proposals hold on the need. */
  reserved: number
  /** The file's cell ("C4"), for a file import. */
  cell?: string
  message: string
}

/** A cell that creates or changes a need (`changes` of the import's answer). */
export interface ImportChange {
  product: string
  productId: string
  /** The month, "2027-01-01". */
  date: string
  cell: string
  /** The quantity before; null for a new need. */
  from: number | null
  to: number
}

/** Answer of `POST /api/needs-loader` and of its preview (PRODUCT §3 "Import result"). */
export interface ImportResult {
  needs: Need[]
  productsFound: string[]
  productsMissing: string[]
  dbErrors: ImportError[]
  /** Cells applied (created, changed, or already at that quantity). */
  dbSuccesses: number
  event?: ActivityEvent
  changes?: ImportChange[]
  /** Kilogram values of more than two decimals, rounded to the hundredth. */
  rounded?: { cell: string; product: string; read: string; quantity: number }[]
  /** Missing products with the closest catalogue name. */
  suggestions?: { name: string; product: string }[]
  /** The sheet read (for a .csv, the file's name). */
  sheet?: string
  /** Every sheet of the file holding a needs table, the one read among them. */
  sheets?: string[]
}

/** One product of a standard-import simulation. */
export interface StandardPreviewLine {
  _id: string
  name: string
  unit: Unit
  values: { date: string; quantity: number }[]
}

/** Answer of `POST /api/needs/importstd/commit`. */
export interface StandardResult {
  needs: Need[]
  event: ActivityEvent
  dbErrors: ImportError[]
  dbSuccesses: number
}

/** What the server said when it refused a file (PRODUCT §8: the rejection's data is kept). */
export interface ImportRejection {
  status: number
  detail: string
  /** Every problem the daemon named (a refused file lists them all), at least the detail. */
  problems: string[]
}

export interface ImportState {
  file: {
    status: LoadStatus
    /** What the import would write, shown before the shop confirms. */
    preview: ImportResult | null
    result: ImportResult | null
    rejection: ImportRejection | null
    /** The sheet the shop chose, sent with the preview and the import; null lets the file say (its active sheet). */
    sheet: string | null
    /**
     * The sheets holding a needs table the shop may choose among: those of
     * the last preview, or those a refusal of an ambiguous choice named.
     */
    sheets: string[]
  }
  standard: {
    /** busy while a simulation or a commit runs. */
    status: LoadStatus
    preview: StandardPreviewLine[] | null
    /** The request the preview answers (what a commit sends). */
    request: { turnover: number; months: string[] } | null
    result: StandardResult | null
  }
}

function initialImportState(): ImportState {
  return {
    file: { status: 'idle', preview: null, result: null, rejection: null, sheet: null, sheets: [] },
    standard: { status: 'idle', preview: null, request: null, result: null },
  }
}

/** The imports' own store. */
export const importState = proxy<ImportState>(initialImportState())

/** Back to the initial state (tests, logout). */
export function resetImports(): void {
  Object.assign(importState, initialImportState())
}

/** Puts written needs into the list, replacing the one with the same id or the same product and month. */
function mergeNeeds(needs: Need[]): void {
  const index = new Map<string, number>()
  state.needs.forEach((n, i) => {
    index.set(n._id, i)
    index.set(`${n.product}|${n.date}`, i)
  })
  for (const need of needs) {
    const at = index.get(need._id) ?? index.get(`${need.product}|${need.date}`)
    if (at === undefined) {
      index.set(need._id, state.needs.length)
      index.set(`${need.product}|${need.date}`, state.needs.length)
      state.needs.push(held(need))
    } else {
      state.needs[at] = held(need)
    }
  }
}

function recordEvent(event: ActivityEvent | undefined): void {
  if (event) prependEvents([event])
}

/** The rejection of a failed call: its status, detail and every problem it names. */
function rejectionOf(err: unknown): ImportRejection {
  const detail = errorMessage(err)
  const listed = err instanceof ApiError ? err.errors.map((e) => e.message).filter(Boolean) : []
  return {
    status: err instanceof ApiError ? err.status : 0,
    detail,
    problems: listed.length > 0 ? listed : [detail],
  }
}

/**
 * The sheets a refusal offers to choose among: the value of its error on
 * the field `sheet` (several sheets hold a table, none is active), or none.
 */
function sheetsOffered(err: unknown): string[] {
  if (!(err instanceof ApiError)) return []
  const choice = err.errors.find((e) => e.location === `body.${IMPORT_SHEET_FIELD}`)
  const names = choice?.value
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []
}

/** The extensions of the files the import reads (any case). */
export const IMPORT_EXTENSIONS = ['.xlsx', '.ods', '.csv'] as const

/** Whether the import reads a file of that name: .xlsx, .ods or .csv (any case). */
export function isImportName(name: string): boolean {
  return /\.(xlsx|ods|csv)$/i.test(name.trim())
}

/**
 * Whether the daemon names what to do with a file of that name: those it
 * reads, and Excel's other workbooks (.xls, .xlsm…), which it refuses
 * saying how to save them as .xlsx or .ods. Any other is refused here.
 */
export function isWorkbookName(name: string): boolean {
  return isImportName(name) || /\.(xls|xlt|xlsm|xlsb|xltm|xltx|xlam)$/i.test(name.trim())
}

/** Whether the file is a .csv: a single table, no sheet to name. */
export function isCSVName(name: string): boolean {
  return /\.csv$/i.test(name.trim())
}

/** The outcome of the file upload. */
export type FileImportOutcome = { ok: true; result: ImportResult } | { ok: false; rejection: ImportRejection }

/**
 * Previews a spreadsheet file (`POST /api/needs-loader/preview`): what the
 * import would write, kept in `importState.file.preview` for the shop to
 * confirm, with the sheet read and the sheets holding a table. Nothing is
 * written. A refused file keeps every problem the daemon named; a refusal
 * of an ambiguous sheet keeps the sheets it names to choose among.
 */
export async function previewFile(file: File): Promise<FileImportOutcome> {
  return sendFile(file, true)
}

/**
 * Reads another sheet of the file: the shop's choice, kept for the import,
 * then the preview of that sheet.
 */
export async function chooseSheet(file: File, sheet: string): Promise<FileImportOutcome> {
  importState.file.sheet = sheet
  return sendFile(file, true)
}

/**
 * Uploads a spreadsheet file (`POST /api/needs-loader`, field `importfile`,
 * and `sheet` when the shop chose one). A name of a type the daemon does
 * not know is refused here with the daemon's own message. On success the
 * written needs and the event join the store; on failure the server's
 * status and French problems are kept in `importState.file.rejection`.
 */
export async function importFile(file: File): Promise<FileImportOutcome> {
  return sendFile(file, false)
}

async function sendFile(file: File, preview: boolean): Promise<FileImportOutcome> {
  const slot = importState.file
  slot.result = null
  slot.preview = null
  slot.rejection = null
  if (!isWorkbookName(file.name)) {
    const rejection = { status: 0, detail: MSG_FILE_TYPE, problems: [MSG_FILE_TYPE] }
    slot.rejection = rejection
    slot.status = 'error'
    progress(IMPORT_MESSAGES.progress).failure(IMPORT_MESSAGES.failure, MSG_FILE_TYPE)
    return { ok: false, rejection }
  }
  const toast = preview ? null : progress(IMPORT_MESSAGES.progress)
  slot.status = 'busy'
  const form = new FormData()
  form.append(IMPORT_FIELD, file, file.name)
  if (slot.sheet !== null) form.append(IMPORT_SHEET_FIELD, slot.sheet)
  try {
    const result = await api.post<ImportResult>(preview ? '/api/needs-loader/preview' : '/api/needs-loader', form)
    slot.status = 'idle'
    if (preview) {
      slot.preview = result
      slot.sheets = result.sheets ?? []
      return { ok: true, result }
    }
    mergeNeeds(result.needs ?? [])
    recordEvent(result.event)
    slot.result = result
    toast?.success(IMPORT_MESSAGES.success)
    return { ok: true, result }
  } catch (err) {
    const rejection = rejectionOf(err)
    slot.rejection = rejection
    slot.status = 'error'
    const offered = sheetsOffered(err)
    if (offered.length > 0) slot.sheets = offered
    ;(toast ?? progress(IMPORT_MESSAGES.progress)).failure(IMPORT_MESSAGES.failure, rejection.detail)
    return { ok: false, rejection }
  }
}

/** Drops the preview: the shop did not confirm. */
export function cancelPreview(): void {
  importState.file.preview = null
}

/** Clears the last upload's outcome. */
export function clearFileImport(): void {
  Object.assign(importState.file, initialImportState().file)
}

/**
 * Simulates a standard import (`POST /api/needs/importstd/sim`) with the
 * corrected turnover and the first three months (PRODUCT §7). On failure it
 * returns silently to idle: no toast, no preview. Returns whether a preview
 * came back.
 */
export async function simulateStandard(turnover: number, months: string[]): Promise<boolean> {
  const slot = importState.standard
  slot.status = 'busy'
  slot.preview = null
  slot.result = null
  slot.request = null
  try {
    const preview = await api.post<StandardPreviewLine[]>('/api/needs/importstd/sim', {
      turnover,
      months: months.slice(0, PREVIEW_MONTHS),
    })
    slot.preview = preview ?? []
    slot.request = { turnover, months: [...months] }
    return true
  } catch (err) {
    console.error('standard import simulation:', err)
    return false
  } finally {
    slot.status = 'idle'
  }
}

/** The outcome of a standard import commit. */
export type StandardOutcome = { ok: true; result: StandardResult } | { ok: false; message: string }

/**
 * Writes the simulated standard import (`POST /api/needs/importstd/commit`)
 * for every month of the simulated request.
 */
export async function commitStandard(): Promise<StandardOutcome> {
  const slot = importState.standard
  const request = slot.request
  if (!request) return { ok: false, message: 'Aucune simulation à importer.' }
  slot.status = 'busy'
  const toast = progress(IMPORT_MESSAGES.progress)
  try {
    const result = await api.post<StandardResult>('/api/needs/importstd/commit', request)
    mergeNeeds(result.needs ?? [])
    recordEvent(result.event)
    slot.result = result
    slot.preview = null
    toast.success(IMPORT_MESSAGES.success)
    return { ok: true, result }
  } catch (err) {
    const message = errorMessage(err)
    toast.failure(IMPORT_MESSAGES.failure, message)
    return { ok: false, message }
  } finally {
    slot.status = 'idle'
  }
}

/** Forgets the preview and the last commit (back to the form). */
export function clearStandardImport(): void {
  Object.assign(importState.standard, initialImportState().standard)
}

/** The file upload's state: status, result, rejection. */
export const useFileImport = () => useSnapshot(importState).file

/** The standard import's state: status, preview, result. */
export const useStandardImport = () => useSnapshot(importState).standard
