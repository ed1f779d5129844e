// Package arena keeps copies of byte strings in large chunks that it reuses once reset, so that
// data that lives only as long as one unit of work (a group commit's record states and change
// bodies) costs no allocation each, and leaves the garbage collector nothing to do.
package arena

const (
	// ChunkSize is the size of each chunk.
	ChunkSize = 1 << 20
	// largest is the longest copy made in a chunk; a longer one gets an allocation of its own
	// (records are rarely so large).
	largest = ChunkSize / 4
)

// Arena hands out copies that stay valid, unmoved, until Reset. Its zero value is ready. It keeps
// at most Keep emptied chunks for the next round; not safe for concurrent use.
type Arena struct {
	chunks [][]byte // in use; the last one is being filled
	free   [][]byte // emptied by Reset
	Keep   int      // chunks kept across Reset (0: none)
}

// Copy returns a copy of b, valid until Reset. Its capacity is its length: appending to it never
// writes into the arena.
func (a *Arena) Copy(b []byte) []byte {
	n := len(b)
	if n > largest {
		return append(make([]byte, 0, n), b...)
	}
	if k := len(a.chunks); k == 0 || cap(a.chunks[k-1])-len(a.chunks[k-1]) < n {
		var c []byte
		if f := len(a.free); f > 0 {
			c, a.free[f-1], a.free = a.free[f-1], nil, a.free[:f-1]
		} else {
			c = make([]byte, 0, ChunkSize)
		}
		a.chunks = append(a.chunks, c)
	}
	last := &a.chunks[len(a.chunks)-1]
	at := len(*last)
	*last = append(*last, b...)
	return (*last)[at:len(*last):len(*last)]
}

// Reset ends every copy made so far (their memory is written again by later copies) and keeps up
// to Keep chunks for reuse.
func (a *Arena) Reset() {
	for _, c := range a.chunks {
		if len(a.free) < a.Keep {
			a.free = append(a.free, c[:0])
		}
	}
	clear(a.chunks)
	a.chunks = a.chunks[:0]
}

// Held is the number of chunks the arena holds, in use or kept.
func (a *Arena) Held() int { return len(a.chunks) + len(a.free) }

// InUse is the number of bytes copied since the last Reset into chunks.
func (a *Arena) InUse() int {
	n := 0
	for _, c := range a.chunks {
		n += len(c)
	}
	return n
}
