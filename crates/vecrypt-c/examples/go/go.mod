module vecrypt.example/kem

go 1.21
