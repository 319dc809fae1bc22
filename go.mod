module github.com/fprlab/fprlab

go 1.26

require (
	github.com/ALTree/bigfloat v0.0.0-20220102081255-38c8b72a9924
	github.com/spf13/cobra v1.10.2
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
