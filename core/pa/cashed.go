package pa

import "context"

// DepositLifecycle deposits a lifecycle message the producer issues (a
// CDAR, Lifecycle.XML: the Encaissée 212 of an invoice paid) as a flow of
// syntax CDAR, named name, and returns the flow the PA made.
func (c *Client) DepositLifecycle(ctx context.Context, name string, cdar []byte) (Flow, error) {
	return c.postFlow(ctx, "lifecycle", flowInfo{Name: name, FlowSyntax: SyntaxCDAR}, "application/xml", cdar)
}
