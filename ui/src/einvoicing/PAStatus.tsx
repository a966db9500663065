import { Badge, Button, Stack, Text } from '@mantine/core'
import { useState } from 'react'
import type { Snapshot } from 'valtio'
import { formatDay } from '../format'
import type { components } from '../schema.gen'
import { CANCEL_TEXTS, REISSUE_TEXTS, cancelRefused, reissueInvoice } from './reissue'

type DocumentPA = components['schemas']['DocumentPAView']

/** Colours of the lifecycle statuses (XP Z12-012's codes 200-213, PRODUCT §16). */
export function paColor(status: string): string {
  switch (status) {
    case '210':
    case '213':
    case 'irrecevable':
      return 'red'
    case '207':
    case '208':
      return 'orange'
    case '205':
    case '206':
    case '209':
    case '211':
    case '212':
      return 'green'
    default:
      return 'blue'
  }
}

/** What the producer does after a rejection or a refusal (PRODUCT §16). */
export const PA_NEXT_STEPS: Record<string, string> = {
  '213':
    'Réputée non émise : corrigez la cause du rejet (vos coordonnées ou celles du magasin), puis émettez la facture corrigée : elle la remplace sous un nouveau numéro, et un avoir interne, jamais déposé sur les plateformes, annule la facture rejetée dans vos comptes.',
  irrecevable:
    'Non reçue par la plateforme, réputée non émise : corrigez la cause, puis émettez la facture corrigée : elle la remplace sous un nouveau numéro, et un avoir interne, jamais déposé sur les plateformes, annule la facture rejetée dans vos comptes.',
  '210':
    'Refusée par le magasin : le refus annule la facture sur les plateformes. Annulez-la aussi dans vos comptes par un avoir interne, jamais déposé sur les plateformes.',
}

/** What both parties read of a rejected invoice once re-issued. */
export const replacedText = (number: string) =>
  `Remplacée par la facture corrigée ${number} ; réputée non émise, elle est annulée par un avoir interne.`

/** What both parties read of a refused invoice once cancelled. */
export const cancelledText = (number: string) => `Annulée par l'avoir interne ${number}.`

/**
 * An invoice's status on the producer's approved platform, under its
 * payment status, as both parties see it: "Plateforme : Déposée", the
 * motive of a rejection or refusal, and its history (in the badge's title,
 * and a disclosure when it has more than one status). A monthly invoice
 * rejected (reissue: its id, when the producer may re-issue it) offers
 * the producer "Émettre la facture corrigée", a refused one "Annuler la
 * facture par un avoir"; once done, both read which document did it.
 */
export function PAStatus({
  pa,
  producer,
  reissue,
}: {
  pa?: Snapshot<DocumentPA>
  producer: boolean
  reissue?: string
}) {
  const [busy, setBusy] = useState(false)
  if (!pa) return null
  if (!pa.status) {
    return producer && pa.error ? (
      <Text size="xs" c="red.8">
        Dépôt sur la plateforme en échec, réessayé plus tard : {pa.error}
      </Text>
    ) : null
  }
  const history = pa.history.map((h) => `${formatDay(h.at.slice(0, 10))} : ${h.label}`).join('\n')
  // The producer's way out of a rejected invoice (a corrected one) or a
  // refused one (a cancelling credit note), once.
  const correction =
    !pa.replacedBy && (pa.status === '213' || pa.status === 'irrecevable')
      ? { run: reissueInvoice, label: REISSUE_TEXTS.button }
      : !pa.cancelledBy && pa.status === '210'
        ? { run: cancelRefused, label: CANCEL_TEXTS.button }
        : null
  return (
    <Stack gap={2} mt={4}>
      <Badge color={paColor(pa.status)} variant="outline" title={history} aria-label={`Plateforme : ${pa.label}`}>
        Plateforme : {pa.label}
      </Badge>
      {pa.history.length > 1 ? (
        <Text size="xs" component="details">
          <summary>Historique sur la plateforme</summary>
          <Stack gap={0} component="ul" m={0} pl="md">
            {pa.history.map((h) => (
              <li key={`${h.at}-${h.status}`}>
                {formatDay(h.at.slice(0, 10))} : {h.label}
                {h.reason ? ` (${h.reason})` : ''}
              </li>
            ))}
          </Stack>
        </Text>
      ) : null}
      {pa.reason ? (
        <Text size="xs" c="dimmed">
          Motif : {pa.reason}
        </Text>
      ) : null}
      {pa.directory ? (
        <Text size="xs" c="orange.9">
          {pa.directory}
        </Text>
      ) : null}
      {pa.replacedBy ? (
        <Text size="xs" c="dimmed">
          {replacedText(pa.replacedBy)}
        </Text>
      ) : pa.cancelledBy ? (
        <Text size="xs" c="dimmed">
          {cancelledText(pa.cancelledBy)}
        </Text>
      ) : producer && PA_NEXT_STEPS[pa.status] ? (
        <Text size="xs" c="red.8">
          {PA_NEXT_STEPS[pa.status]}
        </Text>
      ) : null}
      {producer && reissue && correction ? (
        <Button
          size="compact-xs"
          variant="light"
          color="red"
          loading={busy}
          onClick={() => {
            setBusy(true)
            void correction.run(reissue).finally(() => setBusy(false))
          }}
        >
          {correction.label}
        </Button>
      ) : null}
    </Stack>
  )
}
