import { Badge, Button, FileInput, Group, List, Stack, Text } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import {
  cancelPreview,
  chooseSheet,
  clearFileImport,
  IMPORT_EXTENSIONS,
  importFile,
  isCSVName,
  previewFile,
  useFileImport,
} from '../store/imports'
import { ImportPreview } from './ImportPreview'
import { ImportLinks } from './ImportLinks'
import { ImportResultView } from './ImportResultView'
import { SheetChoice } from './SheetChoice'

/**
 * The files the picker offers: every format the import reads, .xlsx, .ods
 * and .csv (PRODUCT §5 "File import"), by extension and media type.
 */
export const IMPORT_ACCEPT = [
  ...IMPORT_EXTENSIONS,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/csv',
].join(',')

/**
 * The spreadsheet file import (PRODUCT §2): choose an .xlsx, .ods or .csv
 * file and send it for a preview of what it would write, naming the sheet
 * read; when several sheets hold a table, choose the sheet and preview it
 * again; confirm, then read what was imported — or the "Erreur" tag with
 * every problem the server named.
 */
export function FileImport() {
  const [file, setFile] = useState<File | null>(null)
  const { status, preview, result, rejection, sheet, sheets } = useFileImport()
  const busy = status === 'busy'
  useEffect(() => clearFileImport, [])
  // A .csv is one table: no sheet to name.
  const workbook = file !== null && !isCSVName(file.name)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!file || busy) return
    await previewFile(file)
  }
  const confirm = async () => {
    if (file && !busy) await importFile(file)
  }
  const choose = async (name: string) => {
    if (file && !busy) await chooseSheet(file, name)
  }

  return (
    <Stack gap="sm">
      <form onSubmit={onSubmit} noValidate aria-label="Import d'un fichier Excel">
        <Stack gap="sm">
          <Text size="sm">
            Un tableau avec une colonne « Produit » suivie d'un mois par colonne (une date, « janv. 2027 » ou 01/2027),
            puis une ligne par produit avec ses quantités. Les cellules vides sont ignorées. Classeur Excel (.xlsx),
            LibreOffice (.ods) ou fichier .csv : quand plusieurs feuilles contiennent un tableau, la feuille active est
            lue et vous pouvez en choisir une autre. Vous verrez ce qui sera enregistré avant de confirmer.
          </Text>
          <FileInput
            label="Fichier (.xlsx, .ods ou .csv)"
            placeholder="Choisir un fichier"
            accept={IMPORT_ACCEPT}
            value={file}
            onChange={(f) => {
              setFile(f)
              clearFileImport()
            }}
            clearable
            clearButtonProps={{ 'aria-label': 'Retirer le fichier' }}
          />
          <Group justify="space-between">
            <ImportLinks />
            <Button type="submit" disabled={!file || busy || preview !== null}>
              {busy && !preview ? 'en cours...' : 'Importer'}
            </Button>
          </Group>
        </Stack>
      </form>
      {rejection ? (
        <Group gap="xs" role="alert" wrap="nowrap" align="flex-start">
          <Badge color="red" variant="filled">
            Erreur
          </Badge>
          {rejection.problems.length > 1 ? (
            <Stack gap={4}>
              <Text size="sm">{`Le fichier n'a pas été importé : ${rejection.problems.length} problèmes à corriger.`}</Text>
              <List size="sm" spacing={2}>
                {rejection.problems.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            </Stack>
          ) : (
            <Text size="sm">{rejection.detail}</Text>
          )}
        </Group>
      ) : null}
      {workbook && sheets.length > 1 && !result ? (
        <SheetChoice sheets={sheets} value={sheet ?? preview?.sheet ?? null} disabled={busy} onChoose={choose} />
      ) : null}
      {preview ? (
        <ImportPreview
          preview={preview}
          sheet={workbook ? (preview.sheet ?? null) : null}
          busy={busy}
          onConfirm={confirm}
          onCancel={cancelPreview}
        />
      ) : null}
      {result ? (
        <ImportResultView
          count={result.dbSuccesses}
          failures={result.dbErrors}
          missing={result.productsMissing}
          sheet={workbook ? (result.sheet ?? null) : null}
        />
      ) : null}
    </Stack>
  )
}
