// etcd-server runs etcd's own main. etcd's server module cannot be `go install`ed directly
// (its go.mod has replace directives), so the benchmark builds it through this module.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
