import { Anchor, Button, Group, Text } from '@mantine/core'
import { useEffect } from 'react'
import { loadSite, useSite } from '../store/site'

/** The French texts of the contact (PRODUCT §2 "Other pages"). */
export const CONTACT_TEXTS = {
  loading: "Chargement de l'adresse de contact",
  failed: "L'adresse de contact n'a pas pu être chargée.",
  retry: 'Réessayer',
  write: "Écrivez à l'exploitant de cette plateforme :",
  sender: "(l'adresse d'où la plateforme envoie ses courriels)",
  none:
    "L'exploitant de cette plateforme n'a pas encore indiqué d'adresse de contact. Adressez-vous au magasin ou au " +
    'producteur avec qui vous travaillez, qui vous orientera vers lui, ou utilisez les voies de recours ci-dessous.',
} as const

/**
 * The statement's "Retour d'information et contact" address (RGAA): the
 * daemon's `accessibility.contact` setting, else the address its emails are
 * sent from (GET /public/site), as a mailto link; without either, it says
 * so and where else to turn.
 */
export function AccessibilityContact() {
  const { data, status } = useSite()
  useEffect(() => {
    void loadSite()
  }, [])

  if (!data) {
    return status === 'error' ? (
      <Group gap="sm">
        <Text c="red.9">{CONTACT_TEXTS.failed}</Text>
        <Button size="compact-sm" variant="light" onClick={() => void loadSite()}>
          {CONTACT_TEXTS.retry}
        </Button>
      </Group>
    ) : (
      <Text c="dimmed">{CONTACT_TEXTS.loading}</Text>
    )
  }
  if (data.accessibilityContactSource === 'none') return <Text>{CONTACT_TEXTS.none}</Text>
  return (
    <Text>
      {CONTACT_TEXTS.write} <Anchor href={`mailto:${data.accessibilityContact}`}>{data.accessibilityContact}</Anchor>
      {data.accessibilityContactSource === 'mail-sender' ? ` ${CONTACT_TEXTS.sender}` : ''}.
    </Text>
  )
}
