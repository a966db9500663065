import { Text, TextInput } from '@mantine/core'
import { SettingsFormCard } from '../components/SettingsFormCard'
import { fieldProps, useSendForm } from '../forms/useSendForm'
import { useState } from 'react'
import { setPersonName } from '../store/team'
import { PERSON_NAME_TEXTS, type PersonNameField, type PersonNameValues, validatePersonName } from './personName'

/**
 * The profile's "Votre nom" (issue 41, PRODUCT §13 "Teams"): the person's
 * own name, distinct from the organisation's (`PUT /api/user/person`),
 * for every member — an owner who founded the organisation started with
 * its name.
 */
export function PersonNameForm({ name }: { name: string }) {
  const [done, setDone] = useState<string | null>(null)
  const { form, submission, onSubmit } = useSendForm<PersonNameValues, PersonNameField>(
    { name },
    validatePersonName,
    async (v) => {
      await setPersonName(v.name.trim())
      setDone(PERSON_NAME_TEXTS.done)
    },
  )
  return (
    <SettingsFormCard
      id="person-name-title"
      title={PERSON_NAME_TEXTS.title}
      intro={
        <Text size="sm" c="dimmed">
          {PERSON_NAME_TEXTS.intro}
        </Text>
      }
      done={done}
      submission={submission}
      canSubmit={form.canSubmit}
      submitLabel={PERSON_NAME_TEXTS.submit}
      onSubmit={onSubmit}
    >
      <TextInput label={PERSON_NAME_TEXTS.label} autoComplete="name" {...fieldProps(form, 'name')} />
    </SettingsFormCard>
  )
}
