package printable

// ByCluster exposes byCluster: Line's fast paths are checked against it.
var ByCluster = byCluster
