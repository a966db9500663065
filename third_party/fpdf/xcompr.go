// Copyright ©2021 The go-pdf Authors. All rights reserved.
// Use of this source code is governed by a MIT-style
// license that can be found in the LICENSE file.

package fpdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"sync"
)

var xmem = xmempool{
	Pool: sync.Pool{
		New: func() interface{} {
			var m membuffer
			return &m
		},
	},
}

type xmempool struct{ sync.Pool }

// zwriters keeps the zlib writers of compress between documents: making one
// allocates its compressor's tables (about 460 KB at BestSpeed), a reset one
// gives the same output. A sync.Pool would drop them at every garbage
// collection, which a document's own allocations trigger often; this list
// keeps up to zwritersKept of them for the life of the process.
var zwriters = make(chan *zlib.Writer, zwritersKept)

const zwritersKept = 4

func getZWriter() *zlib.Writer {
	select {
	case zw := <-zwriters:
		return zw
	default:
		zw, err := zlib.NewWriterLevel(nil, zlib.BestSpeed)
		if err != nil {
			panic(fmt.Errorf("could not create zlib writer: %w", err))
		}
		return zw
	}
}

func putZWriter(zw *zlib.Writer) {
	select {
	case zwriters <- zw:
	default: // enough kept
	}
}

func (pool *xmempool) compress(data []byte) *membuffer {
	mem := pool.Get().(*membuffer)
	buf := &mem.buf
	buf.Grow(len(data))

	zw := getZWriter()
	defer putZWriter(zw)
	zw.Reset(buf)
	_, err := zw.Write(data)
	if err != nil {
		panic(fmt.Errorf("could not zlib-compress slice: %w", err))
	}

	err = zw.Close()
	if err != nil {
		panic(fmt.Errorf("could not close zlib writer: %w", err))
	}
	return mem
}

func (pool *xmempool) uncompress(data []byte) (*membuffer, error) {
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}

	mem := pool.Get().(*membuffer)
	mem.buf.Reset()

	_, err = mem.buf.ReadFrom(zr)
	if err != nil {
		mem.release()
		return nil, err
	}

	return mem, nil
}

type membuffer struct {
	buf bytes.Buffer
}

func (mem *membuffer) bytes() []byte { return mem.buf.Bytes() }
func (mem *membuffer) release() {
	mem.buf.Reset()
	xmem.Put(mem)
}

func (mem *membuffer) copy() []byte {
	src := mem.bytes()
	dst := make([]byte, len(src))
	copy(dst, src)
	return dst
}
