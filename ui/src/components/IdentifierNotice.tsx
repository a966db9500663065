import { Alert, Button, List, Stack, Text } from '@mantine/core'
import type { IdentifierIssue } from '../types'
import { IDENTIFIER_NOTICE } from '../validation/identifiers'

/**
 * "Identifiants à corriger" (PRODUCT §2 "Dashboard", §5 "Identifiers"): the
 * SIRET or VAT number stored invalid, each with the daemon's sentence, and
 * a button to the first field to correct. Trade goes on meanwhile; nothing
 * shows when nothing is wrong.
 */
export function IdentifierNotice({
  issues,
  onCorrect,
}: {
  issues: readonly Readonly<IdentifierIssue>[] | undefined
  onCorrect?: (field: IdentifierIssue['field']) => void
}) {
  if (!issues || issues.length === 0) return null
  return (
    <Alert color="orange" variant="light" title={IDENTIFIER_NOTICE.title} role="region">
      <Stack gap="xs">
        <List size="sm" spacing={4}>
          {issues.map((issue) => (
            <List.Item key={issue.field}>{issue.message}</List.Item>
          ))}
        </List>
        <Text size="sm">{IDENTIFIER_NOTICE.why}</Text>
        {onCorrect ? (
          <div>
            <Button size="xs" variant="light" color="orange" onClick={() => onCorrect(issues[0].field)}>
              {IDENTIFIER_NOTICE.action}
            </Button>
          </div>
        ) : null}
      </Stack>
    </Alert>
  )
}
