# The subreaper of an unsandboxed RunProcess, in Perl (starts in 2 ms where Python takes
# 30): the same contract as _reaper.py, which runs where there is no perl.
#
#     perl _reaper.pl PRCTL COMMAND [ARGS...]      (PRCTL: this machine's prctl number)
#
# It makes itself a child subreaper, so everything the command leaves behind (setsid,
# double forks, disowned jobs) is re-parented to it; when the command exits, or when it is
# told to stop (TERM, HUP, INT, or its parent dying), it kills and reaps every descendant
# it still has, and exits with the command's status.
use strict;
use warnings;

my $prctl = shift @ARGV;
syscall($prctl, 36, 1, 0, 0, 0);    # PR_SET_CHILD_SUBREAPER
syscall($prctl, 1, 15, 0, 0, 0);    # PR_SET_PDEATHSIG: SIGTERM when the host dies

sub children {
    my @kids;
    opendir(my $tasks, "/proc/self/task") or return ();
    for my $task (grep { /^\d+$/ } readdir $tasks) {
        if (open(my $list, "<", "/proc/self/task/$task/children")) {
            local $/;
            my $text = <$list>;
            push @kids, split(' ', $text // '');
        }
    }
    return @kids;
}

sub sweep {    # kill every descendant, a generation a round: this round's children are
    # killed and waited for, so their own children are re-parented here before the next
    # round looks (without the wait, on a busy machine every round could pass before a
    # killed child had exited, and its children lived on once this helper had gone)
    for (1 .. 1000) {
        my @kids = children();
        last unless @kids;
        kill 'KILL', @kids;
        waitpid($_, 0) for @kids;      # (killed: each exits)
        1 while waitpid(-1, 1) > 0;    # WNOHANG
    }
    1 while waitpid(-1, 1) > 0;
}

my %number = (TERM => 15, HUP => 1, INT => 2);
for my $name (keys %number) {
    $SIG{$name} = sub { sweep(); exit(128 + $number{$name}); };
}
my $pid = fork();
if (!defined $pid) {
    print STDERR "toolpipe: could not start $ARGV[0]: $!\n";
    exit 126;
}
if ($pid == 0) {
    $SIG{$_} = 'DEFAULT' for keys %number;
    { no warnings; exec { $ARGV[0] } @ARGV; }
    print STDERR "toolpipe: could not run '$ARGV[0]': $!\n";
    exit 127;
}
my $status = 0;
while (1) {    # wait for the command; adopted orphans are reaped on the way
    my $done = waitpid(-1, 0);
    last if $done == -1;
    if ($done == $pid) { $status = $?; last; }
}
sweep();
exit(($status & 127) ? 128 + ($status & 127) : $status >> 8);
