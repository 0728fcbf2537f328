# Sourced by the tests and benchmarks of `granary mpi-query`: mpirun kept on this machine.
# Ranks talk through shared memory (vader) and to themselves (self) only; as root (CI
# containers), on more ranks than cores, unbound, and without the cross-memory-attach copy
# that containers often forbid.
GRANARY_MPIRUN=(mpirun --allow-run-as-root --oversubscribe --bind-to none
                --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
