package falcon

// keygenEngine is the key-generation half of an engine.
type keygenEngine interface{}
