import { Badge, Button, FileInput, Group, List, Stack, Text } from '@mantine/core'
import { type FormEvent, useEffect, useState } from 'react'
import { cancelPreview, clearFileImport, importFile, previewFile, useFileImport } from '../store/imports'
import { ImportPreview } from './ImportPreview'
import { ImportLinks } from './ImportLinks'
import { ImportResultView } from './ImportResultView'

/** Accepted files: .xlsx only (PRODUCT §5 "File import"). */
export const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * The Excel file import (PRODUCT §2): choose an .xlsx file and send it for a
 * preview of what it would write; confirm, then read what was imported — or
 * the "Erreur" tag with every problem the server named.
 */
export function FileImport() {
  const [file, setFile] = useState<File | null>(null)
  const { status, preview, result, rejection } = useFileImport()
  const busy = status === 'busy'
  useEffect(() => clearFileImport, [])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!file || busy) return
    await previewFile(file)
  }
  const confirm = async () => {
    if (file && !busy) await importFile(file)
  }

  return (
    <Stack gap="sm">
      <form onSubmit={onSubmit} noValidate aria-label="Import d'un fichier Excel">
        <Stack gap="sm">
          <Text size="sm">
            Un tableau avec une colonne « Produit » suivie d'un mois par colonne (une date, « janv. 2027 » ou 01/2027),
            puis une ligne par produit avec ses quantités. Les cellules vides sont ignorées. Vous verrez ce qui sera
            enregistré avant de confirmer.
          </Text>
          <FileInput
            label="Fichier Excel (.xlsx)"
            placeholder="Choisir un fichier"
            accept={XLSX_ACCEPT}
            value={file}
            onChange={(f) => {
              setFile(f)
              clearFileImport()
            }}
            clearable
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
      {preview ? <ImportPreview preview={preview} busy={busy} onConfirm={confirm} onCancel={cancelPreview} /> : null}
      {result ? (
        <ImportResultView count={result.dbSuccesses} failures={result.dbErrors} missing={result.productsMissing} />
      ) : null}
    </Stack>
  )
}
